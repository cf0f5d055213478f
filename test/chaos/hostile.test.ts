/**
 * Chaos (d): 1,000 seeded hostile requests against every route family of the real server. The server must
 * stay up (the process alive, `/health` answering), answer every request within 15 s with a 4xx or a
 * N.E.K.O. error body (never a 5xx, never a stack trace) and write nothing: the memory root and the config
 * directory are byte-identical before and after, apart from the root lock and SQLite's WAL index.
 */
import { assert, describe, it } from "@effect/vitest"
import { Either, Option, Schema } from "effect"
import { EventLine, Sentinel } from "../../src/store/EventLog.js"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { get, history, makeTempRoot, post, startServer, turn, type RunningServer } from "../support/server.js"
import { generate, KNOWN, send, type Answer } from "./hostile.js"
import { diff, quiet, snapshot } from "./inspect.js"
import { profile, prng, seed, until } from "./profile.js"

/**
 * Files that change without any write: the root lock the process holds, and SQLite's WAL index (`-shm`),
 * where every reader records its read marks.
 */
const ownFiles = (rel: string) => rel.includes(".kioku.lock") || rel.endsWith(".db-shm")

/** True once the sentinel names the journal's last event. */
const checkpointed = (dir: string) => {
  const events = readFileSync(path.join(dir, "events.ndjson"), "utf8").trim().split("\n")
  const last = Schema.decodeUnknownOption(Schema.parseJson(EventLine))(events[events.length - 1] ?? "")
  const sentinel = path.join(dir, "events_applied.json")
  return (
    Option.isSome(last) &&
    existsSync(sentinel) &&
    Schema.decodeUnknownSync(Schema.parseJson(Sentinel))(readFileSync(sentinel, "utf8")).last_applied_event_id ===
      last.value.event_id
  )
}

const ErrorBody = Schema.parseJson(
  Schema.Union(
    Schema.Struct({ status: Schema.Literal("error") }),
    Schema.Struct({ success: Schema.Literal(false) }),
    Schema.Struct({ ok: Schema.Literal(false) }),
    Schema.Struct({ error_code: Schema.String })
  )
)
const isErrorBody = (text: string) => Either.isRight(Schema.decodeUnknownEither(ErrorBody)(text))
const stackTrace = /\bat [\w.<>$]+ \(|node:internal|\.ts:\d+:\d+|\.mjs:\d+:\d+/

const judge = (a: Answer): string | undefined => {
  if (a.status >= 500) return `${a.status}`
  if (stackTrace.test(a.body)) return "a stack trace in the body"
  if (a.status < 400 && !isErrorBody(a.body)) return `accepted with ${a.status}: ${a.body.slice(0, 120)}`
  return undefined
}

describe("chaos: hostile requests", () => {
  it(
    `answers ${profile.hostile} hostile requests with 4xx or error bodies and writes nothing (seed ${seed})`,
    async () => {
      const temp = makeTempRoot()
      let server: RunningServer | undefined
      try {
        server = await startServer(temp.memory)
        const url = server.url
        for (let i = 0; i < 3; i++) await post(`${url}/cache/${KNOWN}`, history(turn(`hello ${i}`, `hi ${i}`)))
        for (const route of ["new_dialog", "get_recent_history", "get_settings", "get_persona", "followup_topics"]) {
          assert.strictEqual((await get(`${url}/${route}/${KNOWN}`)).status, 200)
        }
        // Let the server finish on its own what the seed started (fact extraction, the journal checkpoint 10 s
        // later) before the first snapshot: its background loops then have nothing left to write.
        await post(`${url}/internal/maintenance/run_once`, JSON.stringify({ character: KNOWN }))
        await until("the seed's checkpoint", () => checkpointed(path.join(temp.memory, KNOWN)), 60_000)
        await quiet(temp.memory, [KNOWN])
        const before = snapshot(temp.root, ownFiles)
        const rng = prng(seed)
        const started = Date.now()
        const failures: Array<string> = []
        const kinds: Record<string, number> = {}
        const statuses: Record<string, number> = {}
        const port = server.port
        // Generated four at a time, in order (the same seed gives the same requests): huge bodies are 16 MiB each.
        for (let i = 0; i < profile.hostile; i += 4) {
          const batch = Array.from({ length: Math.min(4, profile.hostile - i) }, () => generate(rng, port))
          await Promise.all(
            batch.map(async (r, j) => {
              kinds[r.kind] = (kinds[r.kind] ?? 0) + 1
              const label = `#${i + j} ${r.kind} ${r.method} ${r.target.toString("latin1").slice(0, 80)}`
              try {
                const a = await send(port, r, 15_000)
                statuses[a.status] = (statuses[a.status] ?? 0) + 1
                const wrong = judge(a)
                if (wrong !== undefined) failures.push(`${label}: ${wrong}`)
              } catch (e) {
                failures.push(`${label}: ${e instanceof Error ? e.message : String(e)}`)
              }
            })
          )
          if (i % 100 === 0) {
            if (server.child.exitCode !== null) throw new Error(`server died at request ${i}: ${failures.join("\n")}`)
            assert.strictEqual((await get(`${url}/health`)).status, 200, `health after request ${i}`)
          }
        }
        assert.isNull(server.child.exitCode)
        assert.strictEqual((await get(`${url}/health`)).status, 200)
        await quiet(temp.memory, [KNOWN])
        const written = diff(before, snapshot(temp.root, ownFiles))
        const figures = {
          seed,
          tried: profile.hostile,
          kinds,
          statuses,
          crashes: 0,
          seconds: (Date.now() - started) / 1000
        }
        console.log(`chaos hostile figures: ${JSON.stringify(figures)}`)
        assert.deepStrictEqual(failures, [], `seed ${seed}`)
        assert.deepStrictEqual(written, [], `hostile requests wrote files (seed ${seed})`)
      } finally {
        await server?.stop()
        temp.cleanup()
      }
    },
    profile.timeout
  )
})
