/**
 * `/new_dialog` benchmark: seeds N.E.K.O.-shaped files for `--chars` characters before the real server binary
 * starts (config/characters.json with the cards, persona.json with 20 protected card lines and 150 other
 * entries, reflections.json with 60 pending/confirmed reflections — `--persona` and `--reflections` change
 * those counts —, recent.json with a memo and five
 * messages), writes two `/cache` turns per character (time_indexed.db, recent = memo + 9 messages), warms up,
 * then measures `GET /new_dialog/<name>` over loopback with 1, 8 and 32 concurrent clients (`--requests` per
 * scenario, round-robin over the characters, on keep-alive connections opened before the clock starts), with
 * one character and with `--chars`, and last one client reading while another writes `/cache` turns to the same
 * character. The rendered size is printed before and after, so a background loop
 * changing the persona mid-run would show.
 */
import { Agent } from "node:http"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import * as path from "node:path"
import { parseArgs } from "node:util"
import { localIso } from "../src/domain/LocalTime.js"
import { cardLines } from "../src/persona/CardSync.js"
import { newEntry } from "../src/persona/Persona.js"
import { history, startServer, turn } from "../test/support/server.js"
import { percentile, send } from "./Http.js"

const DAY = 86_400_000
const names = ["Lanlan", "Mochi", "Yuki", "Sakura", "Kuro", "Momo", "Hana", "Rin", "Tama", "Nana"]
const nameOf = (i: number) => `${names[i % names.length]}${i >= names.length ? i : ""}`
const masterCard = {
  档案名: "Alex",
  性别: "male",
  年龄: "27",
  职业: "software engineer at a small game studio",
  城市: "Osaka",
  爱好: ["bouldering", "film photography", "cooking ramen"],
  饮食: "vegetarian on weekdays, loves spicy food",
  作息: "night owl, usually sleeps around 2 am"
}
const nekoCard = (name: string) => ({
  name,
  性格: "cheerful and a little mischievous, but gets shy when praised",
  口癖: "ends sentences with 'nya~' when excited",
  外貌: "silver hair, amber eyes, a bell collar",
  年龄: "looks about 18",
  喜欢: ["warm milk", "sunny windowsills", "old detective novels"],
  讨厌: ["thunderstorms", "cucumbers", "being ignored"],
  说话风格: "casual, playful, uses short sentences",
  特长: "remembering little details about the master's day",
  背景: "a cat spirit who moved into the master's laptop one rainy night",
  梦想: "to visit the sea with the master someday",
  习惯: "hums a song while waiting for the master to reply",
  "__ai_context.关系": `${name} treats Alex as family and worries when he works too late`
})

const subjects: Record<string, string> = {
  neko: "{ai} gets excited whenever|{ai} once admitted that|{ai} likes to tease Alex when|{ai} feels calm when|{ai} worries that",
  master: "Alex mentioned that|Alex gets stressed when|Alex is proud that|Alex said he wants to try|Alex sighed that",
  relationship:
    "{ai} and Alex joke about how|They agreed that|Alex trusts {ai} with|They both remember how|They argue when",
  reflection: "It seems that|{ai} suspects that|Lately it looks like|{ai} has a feeling that|Perhaps|It could be that"
}
const details = [
  "the deadline for the new boss fight level keeps slipping, and he stays at the office until the last train",
  "the ramen shop near Tenma station changed its broth recipe last month and it is not as good anymore",
  "his sister is visiting from Nagoya next spring and he wants to plan a trip to Nara with her",
  "he finally climbed a purple-grade route at the bouldering gym after weeks of failing the last move",
  "the old film camera from his grandfather needs a new light seal before the autumn festival",
  "rainy evenings are best spent reading detective novels together with the window slightly open",
  "he forgot to eat lunch three times last week because of back-to-back meetings with the publisher",
  "the neighbour's cat sits on the balcony every morning and stares at the laptop screen",
  "he is learning to cook mapo tofu without meat and the first attempt was far too salty",
  "their running joke about the haunted printer at work still makes both of them laugh"
]
/** The `k`-th distinct sentence of a kind (past the 50 or 60 combinations, told apart by a week number). */
const textOf = (kind: string, k: number, ai: string) => {
  const s = (subjects[kind] ?? "").split("|")
  const round = Math.floor(k / (s.length * details.length))
  const when = round === 0 ? "" : ` in week ${round}`
  return `${s[k % s.length]} ${details[Math.floor(k / s.length) % details.length]}${when}.`.replaceAll("{ai}", ai)
}

const said = [
  "I'm home! (drops bag)",
  "[happy] Welcome back, Alex! Long day?",
  "The boss fight level is still broken.",
  "Nya~ (pats your head) You'll fix it tomorrow.",
  "Maybe. I'm making tea first."
]

const seedCharacter = (memory: string, ai: string, now: number, size: Size) => {
  const dir = path.join(memory, ai)
  const at = (days: number) => localIso(now - days * DAY)
  const facts: Record<string, Array<unknown>> = { neko: [], master: [], relationship: [] }
  for (const [section, card] of Object.entries({ neko: nekoCard(ai), master: masterCard })) {
    for (const line of cardLines(section, card))
      facts[section]?.push(newEntry({ ...line, source: "character_card", createdAt: at(30), protected: true }))
  }
  for (let i = 0; i < size.persona; i++) {
    const section = ["neko", "master", "relationship"][i % 3] ?? "neko"
    const id = `prom_ref_${(i + 4096).toString(16).padStart(16, "0")}`
    facts[section]?.push({
      ...newEntry({ id, text: textOf(section, Math.floor(i / 3), ai), source: "reflection", createdAt: at(i % 40) }),
      importance: 1 + (i % 10),
      reinforcement: 1 + (i % 5) * 0.5,
      rein_last_signal_at: at(i % 12),
      ...(i % 30 === 0 ? { suppress: true, suppressed_at: at(1 / 24), recent_mentions: [at(0.1), at(0.05)] } : {})
    })
  }
  const reflections = Array.from({ length: size.reflections }, (_, i) => ({
    id: `ref_${(i + 65536).toString(16).padStart(16, "0")}`,
    text: textOf("reflection", i, ai),
    entity: ["master", "relationship", "neko"][i % 3],
    status: i % 2 === 0 ? "pending" : "confirmed",
    source_fact_ids: [`fact_${i}`],
    created_at: at(i % 15),
    temporal_scope: ["pattern", "state", "episode"][i % 3],
    reinforcement: i % 2 === 0 ? 0.5 : 1 + (i % 4) * 0.25,
    rein_last_signal_at: at(i % 6),
    ...(i % 2 === 1 ? { confirmed_at: at(i % 10) } : {})
  }))
  const memo = "Memo from prior conversations: Alex talked about the level deadline and his sister's visit."
  const recent = [memo, ...said].map((content, i) => ({
    type: i === 0 ? "system" : i % 2 ? "human" : "ai",
    data: { content }
  }))
  mkdirSync(dir, { recursive: true })
  const persona = Object.fromEntries(Object.entries(facts).map(([section, entries]) => [section, { facts: entries }]))
  writeFileSync(path.join(dir, "persona.json"), JSON.stringify(persona, null, 2))
  writeFileSync(path.join(dir, "reflections.json"), JSON.stringify(reflections, null, 2))
  writeFileSync(path.join(dir, "recent.json"), JSON.stringify(recent, null, 2))
}

/** How many persona entries besides the card lines, and how many reflections, each character starts with. */
interface Size {
  readonly persona: number
  readonly reflections: number
}

/** Until `stop` is set: `/cache` turns to `name` from one client, as a chat going on beside the reads. */
const writer = (port: number, name: string, stop: { done: boolean }) =>
  (async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    let turns = 0
    while (!stop.done) {
      const body = history(turn(`Turn ${turns} of the evening chat.`, "Nya~ (listens)"))
      const { status } = await send(agent, port, "POST", `/cache/${name}`, body)
      if (status !== 200) throw new Error(`/cache status ${status}`)
      turns++
    }
    agent.destroy()
    return turns
  })()

/** One table row: characters, clients, requests, req/s, p50, p95, p99 and mean ms. */
const scenario = async (port: number, chars: ReadonlyArray<string>, clients: number, total: number) => {
  const agent = new Agent({ keepAlive: true, maxSockets: clients })
  const latencies: Array<number> = []
  const open = () => send(agent, port, "GET", `/new_dialog/${chars[0]}`)
  await Promise.all(Array.from({ length: clients }, open))
  let sent = 0
  const started = performance.now()
  const worker = async () => {
    while (sent < total) {
      const name = chars[sent++ % chars.length] ?? ""
      const t0 = performance.now()
      const { status } = await send(agent, port, "GET", `/new_dialog/${name}`)
      if (status !== 200) throw new Error(`status ${status}`)
      latencies.push(performance.now() - t0)
    }
  }
  await Promise.all(Array.from({ length: clients }, worker))
  const elapsed = (performance.now() - started) / 1000
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const mean = latencies.reduce((a, b) => a + b, 0) / latencies.length
  const ms = [50, 95, 99].map((p) => percentile(latencies, p)).concat(mean)
  const rate = Math.round(latencies.length / elapsed)
  return [chars.length, clients, latencies.length, rate, ...ms.map((x) => x.toFixed(2))]
}

export const runNewDialog = async (args: ReadonlyArray<string>) => {
  const options = {
    requests: { type: "string" },
    chars: { type: "string" },
    persona: { type: "string" },
    reflections: { type: "string" }
  } as const
  const { values } = parseArgs({ args: [...args], options })
  const requests = Number(values.requests ?? "500")
  const charCount = Number(values.chars ?? "10")
  const size = { persona: Number(values.persona ?? "150"), reflections: Number(values.reflections ?? "60") }
  const root = mkdtempSync(path.join(tmpdir(), "kioku-bench-"))
  const memory = path.join(root, "memory")
  const chars = Array.from({ length: charCount }, (_, i) => nameOf(i))
  const now = Date.now()
  mkdirSync(path.join(root, "config"), { recursive: true })
  const cats = Object.fromEntries(chars.map((n) => [n, nekoCard(n)]))
  writeFileSync(path.join(root, "config", "characters.json"), JSON.stringify({ 主人: masterCard, 猫娘: cats }, null, 2))
  for (const name of chars) seedCharacter(memory, name, now, size)
  const server = await startServer(memory, [], { KIOKU_ACTOR_IDLE_TTL_SECONDS: "3600", KIOKU_LOG_LEVEL: "info" })
  const rows: Array<ReadonlyArray<number | string>> = []
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    for (const name of chars) {
      for (const body of [turn("Back to work on the level.", "Good luck! (waves)"), turn("It works!", "Nya~")]) {
        const { status } = await send(agent, server.port, "POST", `/cache/${name}`, history(body))
        if (status !== 200) throw new Error(`/cache status ${status}`)
      }
    }
    for (let i = 0; i < 100 * chars.length; i++)
      await send(agent, server.port, "GET", `/new_dialog/${chars[i % chars.length]}`)
    const sample = async (when: string) => {
      const text = (await send(agent, server.port, "GET", `/new_dialog/${chars[0]}`)).text
      const lines = text.split("\n").filter((l) => l.startsWith("- ")).length
      const load = loadavg()[0]?.toFixed(1)
      process.stderr.write(`${when}: ${Buffer.byteLength(text)} bytes rendered, ${lines} "- " lines; load ${load}\n`)
    }
    await sample("before")
    const t0 = performance.now()
    for (const n of new Set([1, chars.length])) {
      for (const clients of [1, 8, 32]) {
        rows.push(await scenario(server.port, chars.slice(0, n), clients, requests))
        process.stderr.write(`${rows.at(-1)?.join(" ")}\n`)
      }
    }
    // One reader while the same character takes `/cache` turns from another client.
    const stop = { done: false }
    const writing = writer(server.port, chars[0] ?? "", stop)
    rows.push([...(await scenario(server.port, chars.slice(0, 1), 1, requests)), "with a writer"])
    stop.done = true
    process.stderr.write(`${rows.at(-1)?.join(" ")} (${await writing} turns written meanwhile)\n`)
    process.stderr.write(`measured in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`)
    await sample("after")
    agent.destroy()
  } finally {
    await server.stop()
    rmSync(root, { recursive: true, force: true })
  }
  process.stdout.write("| characters | clients | requests | req/s | p50 ms | p95 ms | p99 ms | mean ms | beside |\n")
  process.stdout.write("|---|---|---|---|---|---|---|---|---|\n")
  for (const r of rows) process.stdout.write(`| ${[...r, ...(r.length < 9 ? [""] : [])].join(" | ")} |\n`)
}
