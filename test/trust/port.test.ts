import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Layer } from "effect"
import { mkdirSync, rmSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { KiokuConfig } from "../../src/Config.js"
import { groupChat, groupParticipant, makeSubject, participant, type MemorySubject } from "../../src/domain/Subject.js"
import { AppFiles } from "../../src/store/AppFiles.js"
import {
  resolveTrustSource,
  stampResolvedTrust,
  trustResponseBlock,
  type TrustSegment,
  type TrustSource
} from "../../src/trust/SegmentTrust.js"
import { canonicalSubject, subjectActor } from "../../src/trust/SubjectIdentity.js"
import { TrustService } from "../../src/trust/TrustService.js"
import { testSettings } from "../support/layers.js"

const subject = (e: Either.Either<MemorySubject, string>) => Either.getOrThrow(e)
const ids = (subjects: ReadonlyArray<MemorySubject>) => subjects.map((s) => s.subjectId)

const trustLayer = () => {
  const settings = testSettings()
  mkdirSync(settings.dataDir, { recursive: true })
  const layer = TrustService.Default.pipe(
    Layer.provide(AppFiles.layer),
    Layer.provide(Layer.succeed(KiokuConfig, settings))
  )
  return { settings, layer }
}

/** Binds `qq:A` and `qq:B` into one entity, `qq:A` canonical (sealed by its first activity). */
const twoAccounts = Effect.gen(function* () {
  const trust = yield* TrustService
  yield* trust.waiveBarrier("qq")
  const { entityId } = yield* trust.ensureAccount("qq:A")
  yield* trust.applyMutations([
    { speakerAccountId: "qq:A", activityEvents: [{ id: "act-0001", count: 1 }], signalEvents: [], channel: undefined }
  ])
  yield* trust.bind({ accountId: "qq:B", entityId: entityId ?? "", boundBy: "op", requireUnbound: false })
  yield* trust.ensureAccount("bili:A")
  yield* trust.bind({ accountId: "bili:A", entityId: entityId ?? "", boundBy: "op", requireUnbound: false })
  return trust
})

const source = (fields: Parameters<typeof resolveTrustSource>[0], speaker?: string): TrustSource =>
  Either.getOrThrow(resolveTrustSource(fields, "segment 0: ", speaker))

describe("the trust port of the group-chat routes", () => {
  it.effect("folds request subjects by participant and widens reads to every account of the platform", () => {
    const { layer } = trustLayer()
    return Effect.gen(function* () {
      const trust = yield* twoAccounts
      const a = subject(groupParticipant("qq", "G1", "A"))
      const b = subject(groupParticipant("qq", "G1", "B"))
      const other = subject(groupParticipant("qq", "G2", "B"))
      const custom = subject(makeSubject("group_participant", "qq:G1:B", "my-scope"))
      const group = subject(groupChat("qq", "G1"))
      const { groups, subjects } = yield* trust.foldRequestSubjects([b, group, a, other, custom])
      assert.deepStrictEqual(
        groups.map((g) => [g.primary.subjectId, ids(g.members)]),
        [
          ["qq:G1:A", ["qq:G1:A", "qq:G1:B"]],
          ["qq:G1", ["qq:G1"]],
          ["qq:G2:A", ["qq:G2:A", "qq:G2:B"]],
          ["qq:G1:B", ["qq:G1:B"]]
        ]
      )
      assert.strictEqual(groups[3]?.primary.scope, "my-scope", "a custom scope is never widened")
      assert.deepStrictEqual(ids(subjects), ["qq:G1:A", "qq:G1:B", "qq:G1", "qq:G2:A", "qq:G2:B", "qq:G1:B"])
      const snap = yield* trust.snapshot
      assert.strictEqual(canonicalSubject(b, snap).subjectId, "qq:G1:A", "writes go to the canonical account")
      assert.strictEqual(canonicalSubject(subject(participant("bili", "A")), snap).subjectId, "bili:A")
    }).pipe(Effect.provide(layer))
  })

  it.effect("fans a forget out to the whole participant on the same platform only, in (key, scope) order", () => {
    const { layer } = trustLayer()
    return Effect.gen(function* () {
      const trust = yield* twoAccounts
      const targets = yield* trust.forgetFanoutTargets(subject(participant("qq", "B")))
      assert.deepStrictEqual(ids(targets), ["qq:A", "qq:B"])
      const alone = yield* trust.forgetFanoutTargets(subject(participant("qq", "Z")))
      assert.deepStrictEqual(ids(alone), ["qq:Z"])
      const encoded = subject(participant("qq", "x:y"))
      assert.strictEqual(encoded.subjectId, "qq:x%3Ay")
      assert.strictEqual(subjectActor(encoded), "x:y")
    }).pipe(Effect.provide(layer))
  })

  it("refuses contradictory trust sources with N.E.K.O.'s details", () => {
    const refusal = (fields: Parameters<typeof resolveTrustSource>[0], speaker?: string) =>
      Either.match(resolveTrustSource(fields, "segment 2: ", speaker), { onLeft: (d) => d, onRight: () => "accepted" })
    assert.strictEqual(
      refusal({ speaker_tier: "admin", speaker_base_trust: 0.5 }, "qq:1"),
      "segment 2: speaker_tier and speaker_base_trust are exclusive"
    )
    assert.strictEqual(
      refusal({ speaker_tier: "normal", speaker_trust: 0.5 }, "qq:1"),
      "segment 2: speaker_trust is exclusive with the server-derived trust source"
    )
    assert.strictEqual(refusal({ speaker_tier: "normal" }), "segment 2: trust source requires a valid speaker_id")
    assert.strictEqual(
      refusal({ speaker_activity_events: [{ id: "abcdefgh", count: 1 }] }),
      "segment 2: speaker_activity_events requires a trust source"
    )
    assert.strictEqual(refusal({ speaker_channel: "open" }), "segment 2: speaker_channel requires a trust source")
    assert.strictEqual(
      refusal({ speaker_tier: "trusted", speaker_is_owner: true }, "qq:1"),
      "segment 2: speaker_is_owner requires the admin tier"
    )
    assert.strictEqual(refusal({ speaker_tier: "admin", speaker_is_owner: true }, "qq:1"), "accepted")
    const deduped = source(
      {
        speaker_tier: "normal",
        speaker_activity_events: [
          { id: "abcdefgh", count: 1 },
          { id: "abcdefgh", count: 2 }
        ]
      },
      "qq:1"
    )
    assert.deepStrictEqual(deduped.activityEvents, [{ id: "abcdefgh", count: 1 }])
  })

  it.effect("stamps, settles and reports a batch: gated while the barrier is pending, then counted once", () => {
    const { layer } = trustLayer()
    return Effect.gen(function* () {
      const trust = yield* TrustService
      const speaker = source(
        { speaker_tier: "normal", speaker_channel: "open", speaker_activity_events: [{ id: "msg-0001", count: 1 }] },
        "qq:9"
      )
      const owner = source({ speaker_tier: "admin" }, "qq:1")
      const legacy = source({ speaker_trust: 0.7 })
      const correction = { speaker_id: "qq:9", event_id: "corr-1", kind: "correction" }
      const segments: ReadonlyArray<TrustSegment> = [
        { speakerId: "qq:9", source: speaker, signalEvents: [], activityEvents: speaker.activityEvents },
        { speakerId: "qq:1", source: owner, signalEvents: [correction], activityEvents: [] },
        { speakerId: undefined, source: legacy, signalEvents: [], activityEvents: [] }
      ]
      const settle = Effect.gen(function* () {
        const snap = yield* trust.snapshot
        const stamped = segments.map((s) => stampResolvedTrust(s, snap))
        const { result, outcomes } = yield* trust.applyForSegments(segments)
        return segments.map((s, i) => trustResponseBlock(s, stamped[i]!, result, outcomes[i]))
      })
      const gated = yield* settle
      assert.deepStrictEqual(gated[0], {
        resolved: null,
        persisted: true,
        signals_applied: 0,
        activity_applied: 0,
        gated: "legacy_import_pending",
        channel_collision: false
      })
      assert.deepStrictEqual(gated[1]?.gated, "legacy_import_pending")
      assert.deepStrictEqual(gated[2], {
        resolved: 0.7,
        persisted: null,
        signals_applied: 0,
        activity_applied: 0,
        gated: null,
        channel_collision: false
      })

      yield* trust.waiveBarrier("qq")
      const open = yield* settle
      assert.deepStrictEqual(open[0], {
        resolved: 0.5,
        persisted: true,
        signals_applied: 0,
        activity_applied: 1,
        gated: null,
        channel_collision: false
      })
      assert.deepInclude(open[1], { resolved: 1, persisted: true, signals_applied: 1 })
      const replay = yield* settle
      assert.closeTo(replay[0]?.resolved ?? 0, 0.421, 1e-9, "the request's own events land after the stamp")
      assert.deepInclude(replay[0], { activity_applied: 0 })
      assert.deepInclude(replay[1], { signals_applied: 0 })
      const profile = yield* trust.profile("qq:9")
      assert.deepInclude(profile, {
        activity_count_sum: 1,
        signal_event_count: 1,
        channels_seen: ["open"],
        canonical_account: "qq:9"
      })
    }).pipe(Effect.provide(layer))
  })

  it.effect("answers persisted: false when the pool file cannot be replaced, and keeps the old state", () => {
    const { settings, layer } = trustLayer()
    return Effect.gen(function* () {
      const trust = yield* TrustService
      yield* trust.waiveBarrier("qq")
      const file = path.join(settings.dataDir, "speaker_trust.json")
      rmSync(file)
      mkdirSync(path.join(file, "blocker"), { recursive: true })
      const s = source({ speaker_tier: "normal", speaker_activity_events: [{ id: "msg-0001", count: 1 }] }, "qq:3")
      const { result, outcomes } = yield* trust.applyForSegments([
        { speakerId: "qq:3", source: s, signalEvents: [], activityEvents: s.activityEvents }
      ])
      assert.strictEqual(result?.persisted, false)
      assert.deepInclude(outcomes[0], { activityApplied: 0 })
      assert.deepInclude(yield* trust.profile("qq:3"), { known: false })
      rmSync(file, { recursive: true })
      writeFileSync(file, "{}")
    }).pipe(Effect.provide(layer))
  })
})
