import { assert, describe, it } from "@effect/vitest"
import { Deferred, Effect, Either, Fiber } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { spawnSync } from "node:child_process"
import { parseClusterOptions } from "../../src/cluster/Options.js"
import { claim, configLock, locksDir, trimAtBytes, type OwnerEvent } from "../../src/cluster/CharacterLock.js"
import { validateCharacterName } from "../../src/domain/CharacterName.js"
import { holds, overlaps } from "../support/cluster.js"
import { distBin } from "../support/server.js"

const at = (runner: string, event: OwnerEvent["event"], time: number): OwnerEvent => ({
  runner,
  pid: 1,
  event,
  at: time
})

describe("cluster options and the owners-log checks the failover tests rely on", () => {
  it("parses runner addresses and shard databases", () => {
    assert.deepStrictEqual(
      parseClusterOptions({ runnerAddress: "10.0.0.1:34431", shardDb: "postgres://k@db/kioku" }),
      Either.right({ runnerAddress: { host: "10.0.0.1", port: 34431 }, shardDb: "postgres://k@db/kioku" })
    )
    assert.deepStrictEqual(
      Either.map(parseClusterOptions({ runnerAddress: "[::1]:9000", shardDb: "sqlite:/x.db" }), (o) => o.runnerAddress),
      Either.right({ host: "::1", port: 9000 })
    )
    for (const bad of [
      { runnerAddress: "host", shardDb: "sqlite:/x.db" },
      { runnerAddress: "host:0", shardDb: "sqlite:/x.db" },
      { runnerAddress: "host:1", shardDb: "mysql://x" }
    ]) {
      assert.isTrue(Either.isLeft(parseClusterOptions(bad)), JSON.stringify(bad))
    }
  })

  it("refuses incomplete or malformed cluster flags on the command line", () => {
    const serve = (...args: ReadonlyArray<string>) =>
      spawnSync(process.execPath, [distBin, "serve", "--port", "0", ...args], { encoding: "utf8" })
    const orphan = serve("--runner-address", "127.0.0.1:1")
    assert.strictEqual(orphan.status, 1)
    assert.include(orphan.stderr, "--runner-address and --shard-db need --cluster")
    const partial = serve("--cluster", "--shard-db", "sqlite:/tmp/x.db")
    assert.include(partial.stderr, "--cluster needs --runner-address HOST:PORT and --shard-db URL")
    const malformed = serve("--cluster", "--runner-address", "nowhere", "--shard-db", "sqlite:/tmp/x.db")
    assert.include(malformed.stderr, "the runner address must be HOST:PORT")
  })

  it("finds two runners holding a character at once, unless the first had died", () => {
    const clean = [at("a", "acquired", 1), at("a", "released", 5), at("b", "acquired", 6)]
    assert.deepStrictEqual(overlaps(clean), [])
    const shared = [at("a", "acquired", 1), at("b", "acquired", 6), at("a", "released", 9)]
    assert.deepStrictEqual(overlaps(shared), ["b acquired while a held", "a released a hold it did not have"])
    const afterDeath = [at("a", "acquired", 1), at("b", "acquired", 6)]
    assert.deepStrictEqual(overlaps(afterDeath, new Map([["a", 4]])), [])
    assert.deepStrictEqual(overlaps(afterDeath, new Map([["a", 7]])), ["b acquired while a held"])
  })

  it("turns an owners log into holds, an unreleased one ending at its runner's death", () => {
    const log = [at("a", "acquired", 1), at("a", "released", 5), at("b", "acquired", 6), at("c", "acquired", 9)]
    assert.deepStrictEqual(holds(log, new Map([["b", 8]])), [
      { runner: "a", from: 1, to: 5 },
      { runner: "b", from: 6, to: 8 },
      { runner: "c", from: 9, to: Infinity }
    ])
  })

  it.live("lets one rename at a time rewrite characters.json", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(path.join(tmpdir(), "kioku-config-lock-"))
      const release = yield* Deferred.make<void>()
      const held = yield* Deferred.make<void>()
      const first = yield* Effect.fork(
        Effect.scoped(
          configLock(root).pipe(
            Effect.zipRight(Deferred.succeed(held, undefined)),
            Effect.zipRight(Deferred.await(release))
          )
        )
      )
      yield* Deferred.await(held)
      const second = yield* Effect.fork(Effect.scoped(configLock(root)))
      yield* Effect.sleep("300 millis")
      assert.isTrue((yield* Fiber.poll(second))._tag === "None", "the second rename waits")
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(first)
      yield* Fiber.join(second)
      rmSync(root, { recursive: true, force: true })
    })
  )

  it.live("cuts a long owners log to its newest lines when the lock is next taken", () =>
    Effect.gen(function* () {
      const root = mkdtempSync(path.join(tmpdir(), "kioku-owners-"))
      const log = path.join(locksDir(root), "Trim.owners.ndjson")
      mkdirSync(locksDir(root), { recursive: true })
      const old = Array.from({ length: 5_000 }, (_, i) =>
        JSON.stringify(at(`old-runner-${i}`, i % 2 === 0 ? "acquired" : "released", i))
      )
      writeFileSync(log, old.join("\n") + "\n")
      assert.isAbove(readFileSync(log).length, trimAtBytes)
      const name = yield* Either.match(validateCharacterName("Trim"), { onLeft: Effect.die, onRight: Effect.succeed })
      yield* Effect.scoped(claim(root, "new-runner")(name))
      const lines = readFileSync(log, "utf8").trim().split("\n")
      assert.strictEqual(lines.length, 1_002)
      assert.strictEqual(lines[0], old[4_000])
      assert.include(lines[1_000], '"new-runner"')
      assert.include(lines[1_000], '"acquired"')
      assert.include(lines[1_001], '"released"')
      rmSync(root, { recursive: true, force: true })
    })
  )
})
