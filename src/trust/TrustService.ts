/**
 * The speaker-trust pool and identity graph as operations, answered in N.E.K.O.'s shapes (`persisted` on
 * every change), and the port of the group-chat routes (`yield* TrustService`; pure helpers in
 * SubjectIdentity.ts and SegmentTrust.ts, all over ONE `TrustSnapshot` taken per request before any write):
 *
 * (1) Subjects → participants (`_fold_request_subjects`):
 *   `foldRequestSubjects(subjects: ReadonlyArray<MemorySubject>)` →
 *   `Effect<{ groups: ReadonlyArray<ParticipantGroup>, subjects: ReadonlyArray<MemorySubject> }>` — `groups`: one
 *   slot per participant in request order (`primary` heads it, `members` are every subject of its accounts on
 *   that platform, `markers` = `subjectMarker` of each member); `subjects`: the flattened read authorisation.
 *   Pure forms: `foldParticipants(subjects, snap)`, `flattenGroups(groups)`, `expandSubject(s, snap)`; for the
 *   write side, `canonicalSubject(s, snap): MemorySubject` (`_apply_canonical_write_routing`: the subject a
 *   write goes to; `s` itself unless the speaker's entity has a sealed canonical account on that platform).
 * (2) Forget fan-out (`_forget_fanout_targets`): `forgetFanoutTargets(subject: MemorySubject)` →
 *   `Effect<ReadonlyArray<MemorySubject>>` — the whole participant on the subject's platform, the requested
 *   subject always included, sorted by (key, scope) (pure: `forgetFanoutTargets(s, snap)`).
 * (3) `scoped_history` trust, per segment (the single shape is one segment with position `""`):
 *   a. `resolveTrustSource(fields: TrustSourceFields, position: "segment N: " | "", speakerId: string |
 *      undefined): Either<TrustSource, string>` — `Left` is the 422 `detail`; `speakerId` is
 *      `normalizeAccountId(speaker_id)` (422 `invalid speaker_id` when given but undefined is the caller's).
 *   b. `snapshot: Effect<TrustSnapshot>` once per request (`_trust_snapshot_for_request`).
 *   c. `stampResolvedTrust({ speakerId, source }, snap): StampedTrust` — `{ speakerTrust: number | null (stamp
 *      `speaker_trust` on the facts only when a number), speakerEntityId (stamp `speaker_entity_id`), gated }`.
 *   d. after the facts are written: `applyForSegments(segments: ReadonlyArray<TrustSegment>)` →
 *      `Effect<{ result: TrustApplyResult | undefined, outcomes: ReadonlyArray<MutationOutcome> }>`, one pool
 *      write for the batch, never fails, `outcomes[i]` is `segments[i]`'s, `result` undefined when nothing
 *      was to settle (`_apply_trust_for_segments`; `trustMutationFor(segment)` is its per-segment step).
 *      A `TrustSegment` is `{ speakerId, source, signalEvents, activityEvents }` — `activityEvents` =
 *      `source.activityEvents` for a segment whose extraction concluded, `[]` otherwise; `signalEvents` = the
 *      owner events the character's actor made durable on the fact rows (scoped/OwnerJobs.ts, OwnerSignals.ts).
 *   e. `trustResponseBlock({ source, signalEvents }, stamped, result, outcomes[i]): TrustBlock` — the
 *      response's `trust` object `{resolved, persisted, signals_applied, activity_applied, gated,
 *      channel_collision}` (`_trust_response_block`).
 */
import { Effect, Either } from "effect"
import { KiokuConfig } from "../Config.js"
import { subjectOfRow, type MemorySubject } from "../domain/Subject.js"
import { AppFiles } from "../store/AppFiles.js"
import { allRows, signalEventsOf, type Row } from "./FactRows.js"
import { accountPlatform, normalizeAccountId } from "./Identity.js"
import * as Graph from "./IdentityGraph.js"
import * as Ledger from "./Ledger.js"
import { accountRecord, entityOf as poolEntityOf, resolveEntity } from "./Pool.js"
import { trustMutationFor, type TrustSegment } from "./SegmentTrust.js"
import {
  flattenGroups,
  foldParticipants,
  forgetFanoutTargets,
  subjectActor,
  subjectPlatform
} from "./SubjectIdentity.js"
import { TrustStore } from "./TrustStore.js"
import { canonicalAccount, entityOf, profile, type TrustSnapshot } from "./TrustSnapshot.js"

type Answer = Record<string, unknown>

const withPersisted = (w: { readonly persisted: boolean; readonly value: Answer | undefined }, extra: Answer = {}) => ({
  ...w.value,
  persisted: w.persisted,
  ...extra
})

export class TrustService extends Effect.Service<TrustService>()("app/trust/TrustService", {
  effect: Effect.gen(function* () {
    const store = yield* TrustStore
    const appFiles = yield* AppFiles
    const { dataDir } = yield* KiokuConfig
    const { snapshot, write } = store
    const characterNames = Effect.map(appFiles.characters, (c) => c.characters)

    const rowsOfEveryone = (names: ReadonlyArray<string>) =>
      Effect.forEach(names, (name) => Effect.either(allRows(dataDir, name)))

    /** Rows `account` wrote into its canonical account's pile while bound (before the unbind); null if unknown. */
    const strandedRows = (account: string, before: TrustSnapshot) =>
      Effect.gen(function* () {
        const entity = entityOf(before, account)
        if (entity === undefined) return 0
        const platform = accountPlatform(account)
        const canonical = canonicalAccount(before, entity, platform)
        if (canonical === undefined || canonical === account) return 0
        const canonicalActor = canonical.slice(canonical.indexOf(":") + 1)
        let stranded = 0
        for (const rows of yield* rowsOfEveryone(yield* characterNames)) {
          if (Either.isLeft(rows)) return null
          stranded += rows.right.filter((row: Row) => {
            if (normalizeAccountId(row["speaker_id"]) !== account) return false
            const subject = subjectOfRow(row)
            return (
              subject !== undefined && subjectPlatform(subject) === platform && subjectActor(subject) === canonicalActor
            )
          }).length
        }
        return stranded
      })

    const zeros = (n: number) => Array.from({ length: n }, () => Ledger.noOutcome)
    /** Settles trust mutations in one write; never fails (a vetoed or lost write answers `persisted: false`). */
    const applyMutations = (mutations: ReadonlyArray<Ledger.TrustMutation>) =>
      Effect.gen(function* () {
        const none = (persisted: boolean): Ledger.TrustApplyResult => ({
          persisted,
          activityApplied: 0,
          signalsApplied: 0,
          signalsDeferred: 0,
          channelCollisions: [],
          perMutation: zeros(mutations.length)
        })
        if (mutations.length === 0) return none(true)
        const w = yield* write((draft, now) => {
          const { dirty, result } = Ledger.applyMutations(draft, mutations, now)
          return Either.right({ dirty, value: result })
        })
        if (w.value === undefined) return none(false)
        if (w.persisted) return w.value
        return {
          ...none(false),
          signalsDeferred: w.value.signalsDeferred,
          channelCollisions: w.value.channelCollisions,
          perMutation: w.value.perMutation.map((o) => ({ ...Ledger.noOutcome, signalsDeferred: o.signalsDeferred }))
        }
      })

    const applyForSegments = (segments: ReadonlyArray<TrustSegment>) =>
      Effect.gen(function* () {
        const outcomes: Array<Ledger.MutationOutcome> = zeros(segments.length)
        const positions: Array<number> = []
        const mutations: Array<Ledger.TrustMutation> = []
        segments.forEach((segment, i) => {
          const m = trustMutationFor(segment)
          if (m !== undefined) {
            mutations.push(m)
            positions.push(i)
          }
        })
        if (mutations.length === 0) return { result: undefined, outcomes }
        const result = yield* applyMutations(mutations)
        positions.forEach((p, k) => (outcomes[p] = result.perMutation[k] ?? Ledger.noOutcome))
        if (!result.persisted)
          yield* Effect.logWarning("speaker trust not persisted; the caller keeps the segments to retry").pipe(
            Effect.annotateLogs({ mutations: mutations.length })
          )
        return { result, outcomes }
      })

    return {
      snapshot,
      applyMutations,
      applyForSegments,
      foldRequestSubjects: (subjects: ReadonlyArray<MemorySubject>) =>
        Effect.map(snapshot, (snap) => {
          const groups = foldParticipants(subjects, snap)
          return { groups, subjects: flattenGroups(groups) }
        }),
      forgetFanoutTargets: (subject: MemorySubject) =>
        Effect.map(snapshot, (snap) => forgetFanoutTargets(subject, snap)),
      profile: (account: string) => Effect.map(snapshot, (snap) => profile(snap, account)),

      importLegacy: (
        input: { readonly platform: string; readonly source: string; readonly final: boolean },
        profiles: Readonly<Record<string, unknown>>
      ) =>
        Effect.map(
          write((draft, now) => {
            const { dirty, answer } = Ledger.importLegacy(
              draft,
              { ...input, platform: input.platform.trim().toLowerCase() },
              profiles,
              now
            )
            return Either.right({ dirty, value: { ...answer } })
          }),
          (w) => withPersisted(w)
        ),

      waiveBarrier: (platform: string) => {
        const key = platform.trim().toLowerCase()
        return Effect.map(
          write((draft, now) =>
            Either.right({ dirty: Ledger.waiveBarrier(draft, key, now), value: { platform: key, barrier: "cleared" } })
          ),
          (w) => withPersisted(w)
        )
      },

      /** Scans the named characters' fact rows outside the lock, then folds what is missing in one write. */
      reconcile: (names: ReadonlyArray<string>) =>
        Effect.gen(function* () {
          const events: Array<Ledger.SignalEvent> = []
          for (const [i, rows] of (yield* rowsOfEveryone(names)).entries()) {
            if (Either.isRight(rows)) events.push(...signalEventsOf(rows.right))
            else
              yield* Effect.logWarning("reconcile_from_facts could not read a character's facts").pipe(
                Effect.annotateLogs({ character: names[i] })
              )
          }
          return withPersisted(
            yield* write((draft, now) => {
              const { dirty, answer } = Ledger.foldSignals(draft, events, now)
              return Either.right({ dirty, value: { ...answer } })
            })
          )
        }),
      defaultCharacterNames: characterNames,

      declareScope: (raw: Parameters<typeof Graph.scopeDeclaration>[0]) =>
        Effect.flatMap(Graph.scopeDeclaration(raw), (d) =>
          Effect.map(
            write((draft, now) => Graph.declareScope(draft, d, now)),
            (w) => withPersisted(w, { platform: d.platform })
          )
        ),

      /** Registers an account in its own entity if unseen; `entityId` undefined for a malformed id. */
      ensureAccount: (raw: string) =>
        Effect.gen(function* () {
          const account = normalizeAccountId(raw)
          if (account === undefined) return { entityId: undefined, persisted: false }
          const existing = entityOf(yield* snapshot, account)
          if (existing !== undefined) return { entityId: existing, persisted: true }
          const w = yield* write((draft, now) => {
            accountRecord(draft, account, { now })
            return Either.right({ dirty: true, value: poolEntityOf(draft, account) })
          })
          return { entityId: w.value, persisted: w.persisted }
        }),

      bind: (input: {
        readonly accountId: string
        readonly entityId: string
        readonly boundBy: string | null
        readonly requireUnbound: boolean
      }) => {
        const account = normalizeAccountId(input.accountId)
        if (account === undefined)
          return Effect.fail(new Graph.TrustIdentityError({ status: 422, message: "invalid account_id" }))
        const target = input.entityId.trim()
        if (target === "")
          return Effect.fail(new Graph.TrustIdentityError({ status: 422, message: "entity_id is required" }))
        return Effect.map(
          write((draft, now) => Graph.bind(draft, { ...input, accountId: account, entityId: target }, now)),
          (w) => withPersisted(w, { account_id: account })
        )
      },

      unbind: (raw: string, requireProvenance: boolean) =>
        Effect.gen(function* () {
          const account = normalizeAccountId(raw)
          if (account === undefined)
            return yield* new Graph.TrustIdentityError({ status: 422, message: "invalid account_id" })
          const before = yield* snapshot
          const w = yield* write((draft, now) => Graph.unbind(draft, account, requireProvenance, now))
          return withPersisted(w, { account_id: account, stranded_rows: yield* strandedRows(account, before) })
        }),

      merge: (left: string, right: string) => {
        const a = left.trim()
        const b = right.trim()
        if (a === "" || b === "")
          return Effect.fail(new Graph.TrustIdentityError({ status: 422, message: "both entity ids are required" }))
        return Effect.map(
          write((draft, now) => {
            const dirty = resolveEntity(draft, a) !== resolveEntity(draft, b)
            return Either.map(Graph.mergeEntities(draft, a, b, now), (survivor) => ({
              dirty,
              value: { entity_id: survivor }
            }))
          }),
          (w) => withPersisted(w)
        )
      },

      forget: (raw: string) => {
        const target = raw.trim()
        if (target === "")
          return Effect.fail(new Graph.TrustIdentityError({ status: 422, message: "entity_id is required" }))
        return Effect.map(
          write((draft, now) => Graph.forget(draft, target, now)),
          (w) => withPersisted(w)
        )
      }
    } as const
  }),
  dependencies: [TrustStore.Default]
}) {}
