import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, TestClock } from "effect"
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { appLayer } from "../../src/App.js"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import type { CharacterName } from "../../src/domain/CharacterName.js"
import * as CharacterDirs from "../../src/store/CharacterDirs.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { DueWork } from "../../src/maintenance/DueWork.js"
import { commandOf, fanOut } from "../../src/maintenance/Maintenance.js"
import { loops } from "../../src/maintenance/policies.js"
import { MemoryService } from "../../src/MemoryService.js"
import * as Startup from "../../src/Startup.js"
import { FILE } from "../../src/store/DueIndex.js"
import * as Outbox from "../../src/store/Outbox.js"
import { testSettings } from "../support/layers.js"

const QUIET = ["Quiet1", "Quiet2", "Quiet3"]
const PROBE = "probe.0badc0de.tmp"

/** Plants a leftover temp file: loading the character sweeps it, so its absence proves a load. */
const probe = (root: string, name: string) => writeFileSync(path.join(root, name, PROBE), "")
const loaded = (root: string, names: ReadonlyArray<string>) =>
  names.filter((n) => !existsSync(path.join(root, n, PROBE)))

const seed = (root: string) => {
  for (const name of [...QUIET, "Busy"]) {
    mkdirSync(path.join(root, name), { recursive: true })
    writeFileSync(path.join(root, name, "facts.json"), "[]")
  }
}

/** One runtime over `settings` (loops off: the test runs passes itself), recovered. */
const start = (settings: ReturnType<typeof testSettings>) =>
  Effect.gen(function* () {
    const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, maintenance: false }))
    yield* Effect.provide(Startup.recover, ctx)
    const registry = yield* Effect.provide(CharacterRegistry, ctx)
    const loop = loops(settings.tunables).find((l) => l.name === "signal_extraction")
    const command = Option.flatMap(Option.fromNullable(loop), (l) => commandOf(l.name))
    if (loop === undefined || Option.isNone(command)) return yield* Effect.die("no signal_extraction loop")
    return {
      memory: yield* Effect.provide(MemoryService, ctx),
      registry,
      dueWork: yield* Effect.provide(DueWork, ctx),
      pass: Effect.provide(fanOut(loop, command.value), ctx),
      closeAll: Effect.flatMap(registry.active, (names) => Effect.forEach(names, registry.close, { discard: true }))
    }
  })

/** A runtime over seeded characters, every one of them settled by a pass once quiet for the settle time. */
const settledStart = () =>
  Effect.gen(function* () {
    const settings = testSettings()
    seed(settings.dataDir)
    const rt = yield* start(settings)
    yield* TestClock.adjust(`${settings.tunables.maintenance_settle_seconds + 1} seconds`)
    yield* rt.pass
    return { ...rt, settings }
  })

const all = (...names: ReadonlyArray<string>): ReadonlyArray<CharacterName> =>
  [...names].sort().flatMap(CharacterDirs.characterOf)

describe("due-work index", () => {
  it.effect("a pass loads only the characters with due work; a settled character is never loaded", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      seed(settings.dataDir)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const rt = yield* start(settings)
          assert.isTrue(existsSync(path.join(settings.dataDir, FILE)))
          // A new index: every character is due once; a pass once they have been quiet settles them.
          assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), all(...QUIET, "Busy"))
          yield* TestClock.adjust(`${settings.tunables.maintenance_settle_seconds + 1} seconds`)
          yield* rt.pass
          assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), [])
          yield* rt.memory.write("cache", "Busy", { messages: [{ role: "user", content: "I live in Nara." }] })
          yield* rt.closeAll
          for (const name of [...QUIET, "Busy"]) probe(settings.dataDir, name)
          assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), all("Busy"))
          yield* rt.pass
          assert.deepStrictEqual(loaded(settings.dataDir, [...QUIET, "Busy"]), ["Busy"])
          // Written a moment ago: still due until it has been quiet for the settle time.
          assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), all("Busy"))
          yield* TestClock.adjust(`${settings.tunables.maintenance_settle_seconds + 1} seconds`)
          yield* rt.pass
          assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), [])
          assert.deepStrictEqual(loaded(settings.dataDir, QUIET), [])
        })
      )
      // A restart on the same root trusts the index: recovery and passes leave settled characters on disk.
      for (const name of [...QUIET, "Busy"]) probe(settings.dataDir, name)
      yield* Effect.scoped(
        Effect.gen(function* () {
          const rt = yield* start(settings)
          assert.deepStrictEqual(yield* rt.registry.active, [])
          yield* rt.pass
          assert.deepStrictEqual(loaded(settings.dataDir, [...QUIET, "Busy"]), [])
        })
      )
    })
  )

  it.effect("a visit settles a character at once when its actor keeps no work for later", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const rt = yield* settledStart()
        yield* rt.memory.write("cache", "Busy", { messages: [{ role: "user", content: "I live in Nara." }] })
        // The turn waits for its extraction window and the idle check: the visit leaves the character due.
        yield* rt.pass
        assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), all("Busy"))
        // Both came in (a minute later, not the settle time): the next visit settles it.
        yield* TestClock.adjust("61 seconds")
        yield* rt.pass
        assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), [])
      })
    )
  )

  it.effect("a due time brings a settled character back to the time-driven loops only", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const rt = yield* settledStart()
        const settings = rt.settings
        assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), [])
        yield* TestClock.adjust(`${settings.tunables.maintenance_recheck_seconds + 1} seconds`)
        assert.deepStrictEqual(yield* rt.dueWork.due("auto_promote"), all(...QUIET, "Busy"))
        assert.deepStrictEqual(yield* rt.dueWork.due("signal_extraction"), [])
      })
    )
  )

  it.effect("another process on the root, a missing index or a crash before the index update never skip work", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      seed(settings.dataDir)
      const settle = Effect.scoped(
        Effect.flatMap(start(settings), (rt) =>
          Effect.gen(function* () {
            yield* rt.pass
            yield* TestClock.adjust(`${settings.tunables.maintenance_settle_seconds + 1} seconds`)
            yield* rt.pass
            return yield* rt.dueWork.due("signal_extraction")
          })
        )
      )
      assert.deepStrictEqual(yield* settle, [])
      // An older kioku (or any process) took the root lock meanwhile: it rewrote the pid file, not the index.
      writeFileSync(path.join(settings.dataDir, ".kioku.lock.pid"), "4242\n")
      const rebuilt = yield* Effect.scoped(Effect.flatMap(start(settings), (rt) => rt.dueWork.due("signal_extraction")))
      assert.deepStrictEqual(rebuilt, all(...QUIET, "Busy"))
      // The index deleted: rebuilt by one scan, everything due once; a directory that appeared is due too.
      assert.deepStrictEqual(yield* settle, [])
      for (const f of readdirSync(settings.dataDir))
        if (f.startsWith(FILE)) writeFileSync(path.join(settings.dataDir, f), "junk")
      mkdirSync(path.join(settings.dataDir, "Copied"))
      const recreated = yield* Effect.scoped(
        Effect.flatMap(start(settings), (rt) => rt.dueWork.due("signal_extraction"))
      )
      assert.deepStrictEqual(recreated, all(...QUIET, "Busy", "Copied"))
      // The mark is written before the journal line: a write leaves the character due even if nothing after
      // the journal append ran (here: the actor is closed right away, no pass saw it).
      assert.deepStrictEqual(yield* settle, [])
      yield* Effect.scoped(
        Effect.flatMap(start(settings), (rt) =>
          rt.memory.write("cache", "Quiet2", { messages: [{ role: "user", content: "I moved to Kobe." }] })
        )
      )
      // Startup loads it only when the turn left work to recover: here, whether its outbox drain ran before the close.
      const outbox = path.join(settings.dataDir, "Quiet2", "outbox.ndjson")
      const pending = existsSync(outbox) && Outbox.readOutbox(readFileSync(outbox, "utf8")).ops.size > 0
      const after = yield* Effect.scoped(
        Effect.flatMap(start(settings), (rt) => Effect.zip(rt.dueWork.due("signal_extraction"), rt.registry.active))
      )
      assert.deepStrictEqual(after, [all("Quiet2"), pending ? all("Quiet2") : []])
    })
  )
})
