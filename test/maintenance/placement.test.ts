import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Ref } from "effect"
import { mkdirSync } from "node:fs"
import * as path from "node:path"
import { CharacterRegistry } from "../../src/character/CharacterRegistry.js"
import { Placement } from "../../src/runtime/Placement.js"
import { appLayer } from "../../src/App.js"
import { MemoryService } from "../../src/MemoryService.js"
import { Tokenizer } from "../../src/llm/Tokenizer.js"
import { commandOf, fanOut } from "../../src/maintenance/Maintenance.js"
import { loops } from "../../src/maintenance/policies.js"
import { tunableDefaults } from "../../src/Tunables.js"
import { testSettings } from "../support/layers.js"

describe("maintenance under a placement", () => {
  it.scoped("visits only the characters this runner owns, through the placement's route", () =>
    Effect.gen(function* () {
      const settings = testSettings({})
      for (const name of ["Aki", "Bo", "Chie"]) mkdirSync(path.join(settings.dataDir, name), { recursive: true })
      const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, maintenance: false }))
      const sent = yield* Ref.make<ReadonlyArray<readonly [string, string]>>([])
      const placement = {
        owns: (name: string) => name !== "Bo",
        claim: () => Effect.void,
        maintain: Option.some((name: string, loop: string) => Ref.update(sent, (s) => [...s, [name, loop] as const])),
        sharedLock: Option.none()
      }
      for (const loop of loops(tunableDefaults).filter((l) => l.name === "auto_promote" || l.name === "rebuttal")) {
        const command = Option.getOrThrow(commandOf(loop.name))
        yield* fanOut(loop, command).pipe(Effect.provide(ctx), Effect.provideService(Placement, placement))
      }
      assert.deepStrictEqual(yield* Ref.get(sent), [
        ["Aki", "auto_promote"],
        ["Chie", "auto_promote"],
        ["Aki", "rebuttal"],
        ["Chie", "rebuttal"]
      ])
      assert.deepStrictEqual(yield* Effect.flatMap(CharacterRegistry, (r) => r.active).pipe(Effect.provide(ctx)), [])
    })
  )

  it.scoped("closes the characters a pass loaded once their visit is over, and keeps the ones in use", () =>
    Effect.gen(function* () {
      const settings = testSettings({})
      for (const name of ["Aki", "Bo"]) mkdirSync(path.join(settings.dataDir, name), { recursive: true })
      const ctx = yield* Layer.build(appLayer({ settings, tokenizer: Tokenizer.Heuristic, maintenance: false }))
      const memory = yield* Effect.provide(MemoryService, ctx)
      yield* memory.write("cache", "Chie", { messages: [{ role: "user", content: "hi" }] })
      for (const loop of loops(tunableDefaults).filter(
        (l) => l.name === "auto_promote" || l.name === "archive_sweep"
      )) {
        yield* fanOut(loop, Option.getOrThrow(commandOf(loop.name))).pipe(Effect.provide(ctx))
      }
      const live = yield* Effect.flatMap(CharacterRegistry, (r) => r.active).pipe(Effect.provide(ctx))
      assert.deepStrictEqual(live.map(String), ["Chie"])
    })
  )
})
