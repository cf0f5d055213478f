/**
 * A scripted OpenAI-compatible provider on loopback for tests of the real server (the LLM boundary is the one
 * place fakes are allowed). Fact-extraction prompts get one fact per "Master | …" line, summaries a short
 * summary, anything else an empty object. In storm mode a share of calls hang until the client gives up,
 * answer 500, or answer garbage, from a seeded generator so a failing run reproduces.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"

export type Mode =
  | { readonly _tag: "calm" }
  | { readonly _tag: "storm"; readonly failShare: number; readonly seed: number }

export interface FakeProvider {
  readonly baseUrl: string
  readonly setMode: (mode: Mode) => void
  readonly counts: () => {
    readonly calls: number
    readonly hung: number
    readonly errors: number
    readonly garbage: number
  }
  readonly close: () => Promise<void>
}

/** mulberry32: a small seeded generator. */
const generator = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const completion = (content: string) =>
  JSON.stringify({ choices: [{ message: { role: "assistant", content }, finish_reason: "stop" }] })

/** The answer a calm model gives to `prompt`. */
export const calmAnswer = (prompt: string): string => {
  if (prompt.includes("pick out the facts worth remembering")) {
    const said = [...prompt.matchAll(/^Master \| (.+)$/gm)].map((m) => m[1] ?? "")
    return JSON.stringify(said.map((text) => ({ text: `Master said: ${text}`, importance: 6, entity: "master" })))
  }
  if (/summar/i.test(prompt)) return JSON.stringify({ summary: "They talked for a while." })
  return "{}"
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = ""
    req.on("data", (c: Buffer) => (text += c.toString()))
    req.on("end", () => resolve(text))
  })

const promptOf = (body: string): string => {
  const parsed: unknown = JSON.parse(body)
  if (typeof parsed !== "object" || parsed === null || !("messages" in parsed) || !Array.isArray(parsed.messages)) {
    return ""
  }
  return parsed.messages
    .map((m: unknown) => (typeof m === "object" && m !== null && "content" in m ? String(m.content) : ""))
    .join("\n")
}

export const startFakeProvider = async (): Promise<FakeProvider> => {
  let mode: Mode = { _tag: "calm" }
  let random = generator(1)
  const counts = { calls: 0, hung: 0, errors: 0, garbage: 0 }
  const open = new Set<ServerResponse>()
  const server = createServer(async (req, res) => {
    const prompt = promptOf(await readBody(req))
    counts.calls++
    if (mode._tag === "storm" && random() < mode.failShare) {
      const kind = Math.floor(random() * 3)
      if (kind === 0) {
        counts.hung++
        open.add(res)
        res.on("close", () => open.delete(res))
        return
      }
      if (kind === 1) {
        counts.errors++
        res.writeHead(500, { "content-type": "application/json" }).end('{"error":"overloaded"}')
        return
      }
      counts.garbage++
      res.writeHead(200, { "content-type": "application/json" }).end(completion("{not json at all"))
      return
    }
    res.writeHead(200, { "content-type": "application/json" }).end(completion(calmAnswer(prompt)))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    setMode: (next) => {
      mode = next
      if (next._tag === "storm") random = generator(next.seed)
    },
    counts: () => ({ ...counts }),
    close: async () => {
      for (const res of open) res.destroy()
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      server.closeAllConnections()
      await closed
    }
  }
}
