import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option } from "effect"
import { mkdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { KiokuConfig } from "../../src/Config.js"
import { sharedFileLock } from "../../src/cluster/CharacterLock.js"
import { Placement } from "../../src/runtime/Placement.js"
import { AppFiles } from "../../src/store/AppFiles.js"
import { entityOf } from "../../src/trust/TrustSnapshot.js"
import { TrustService } from "../../src/trust/TrustService.js"
import { testSettings } from "../support/layers.js"

describe("the speaker-trust pool on a root several runners share", () => {
  it.scoped("each runner's write starts from the file on disk and each snapshot sees the others' changes", () =>
    Effect.gen(function* () {
      const settings = testSettings()
      mkdirSync(settings.dataDir, { recursive: true })
      const placement = Layer.succeed(Placement, {
        owns: () => true,
        claim: () => Effect.void,
        maintain: Option.none(),
        sharedLock: Option.some((key: string) => Effect.asVoid(sharedFileLock(settings.dataDir, key)))
      })
      // Two services built apart, as two runner processes hold two pools in memory.
      const runner = Effect.flatMap(
        Layer.build(
          TrustService.Default.pipe(
            Layer.provide(AppFiles.layer),
            Layer.provide(placement),
            Layer.provide(Layer.succeed(KiokuConfig, settings))
          )
        ),
        (ctx) => Effect.provide(TrustService, ctx)
      )
      const a = yield* runner
      const b = yield* runner
      // Both load the pool before either writes.
      yield* a.snapshot
      yield* b.snapshot
      const first = yield* a.ensureAccount("qq:1001")
      const second = yield* b.ensureAccount("qq:2002")
      assert.isTrue(first.persisted && second.persisted)
      const onDisk = readFileSync(path.join(settings.dataDir, "speaker_trust.json"), "utf8")
      assert.include(onDisk, "qq:1001", "the second runner's write kept the first one's account")
      assert.include(onDisk, "qq:2002")
      assert.strictEqual(entityOf(yield* a.snapshot, "qq:2002"), second.entityId)
      assert.strictEqual(entityOf(yield* b.snapshot, "qq:1001"), first.entityId)
      assert.isTrue((yield* a.ensureAccount("qq:2002")).persisted)
    })
  )
})
