/**
 * The trust side of one `scoped_history` segment (or the single-speaker shape), pure. A segment names its
 * trust source in exactly one way: the legacy caller-computed `speaker_trust`, or a server-derived source
 * (`speaker_tier` xor `speaker_base_trust`, which needs a valid `speaker_id`); activity events and a channel
 * need a server source, and `speaker_is_owner` with a server source needs the admin tier (422 otherwise,
 * prefixed with the segment's position). The resolved trust comes from the request's one snapshot, before
 * this request's own events land; `null` means "do not stamp a trust on the facts".
 */
import { Either } from "effect"
import type { TrustBlock } from "../api/GroupSchemas.js"
import { accountPlatform, type Tier } from "./Identity.js"
import {
  noOutcome,
  type ActivityEvent,
  type MutationOutcome,
  type SignalEvent,
  type TrustApplyResult,
  type TrustMutation
} from "./Ledger.js"
import { barrierPending, entityOf, resolveTrust, type TrustSnapshot } from "./TrustSnapshot.js"

/** The trust fields a segment (or the single shape) carries, as its request Schema decoded them. */
export interface TrustSourceFields {
  readonly speaker_trust?: number | null | undefined
  readonly speaker_tier?: Tier | null | undefined
  readonly speaker_base_trust?: number | null | undefined
  readonly speaker_activity_events?: ReadonlyArray<ActivityEvent> | null | undefined
  readonly speaker_channel?: string | null | undefined
  readonly speaker_is_owner?: boolean | undefined
}

export interface TrustSource {
  readonly tier: Tier | undefined
  readonly base: number | undefined
  readonly legacy: number | undefined
  readonly channel: string | undefined
  readonly activityEvents: ReadonlyArray<ActivityEvent>
  readonly hasServerSource: boolean
}

const given = <A>(v: A | null | undefined): A | undefined => (v === null ? undefined : v)

/**
 * N.E.K.O.'s `_resolve_trust_source`. `position` is `""` for the single shape, `"segment N: "` for a batch
 * segment; `speakerId` is the normalised `speaker_id` (undefined when absent). `Left` is the 422 detail.
 */
export const resolveTrustSource = (
  fields: TrustSourceFields,
  position: string,
  speakerId: string | undefined
): Either.Either<TrustSource, string> => {
  const tier = given(fields.speaker_tier)
  const base = given(fields.speaker_base_trust)
  const legacy = given(fields.speaker_trust)
  const channel = given(fields.speaker_channel)
  const raw = given(fields.speaker_activity_events) ?? []
  const server = tier !== undefined || base !== undefined
  if (tier !== undefined && base !== undefined)
    return Either.left(`${position}speaker_tier and speaker_base_trust are exclusive`)
  if (legacy !== undefined && server)
    return Either.left(`${position}speaker_trust is exclusive with the server-derived trust source`)
  if (server && !speakerId) return Either.left(`${position}trust source requires a valid speaker_id`)
  if (raw.length > 0 && !server) return Either.left(`${position}speaker_activity_events requires a trust source`)
  if (channel !== undefined && !server) return Either.left(`${position}speaker_channel requires a trust source`)
  if (fields.speaker_is_owner === true && server && tier !== "admin")
    return Either.left(`${position}speaker_is_owner requires the admin tier`)
  const seen = new Set<string>()
  const activityEvents = raw.filter((e) => !seen.has(e.id) && (seen.add(e.id), true))
  return Either.right({ tier, base, legacy, channel, activityEvents, hasServerSource: server })
}

export interface StampedTrust {
  /** The `speaker_trust` to stamp on the segment's facts; `null`: stamp none. */
  readonly speakerTrust: number | null
  /** The speaker's entity, stamped as `speaker_entity_id` when known. */
  readonly speakerEntityId: string | undefined
  /** Set when trust abstained because the platform's legacy import is pending. */
  readonly gated: "legacy_import_pending" | undefined
}

/** N.E.K.O.'s `_stamp_resolved_trust`: the legacy value when no server source, else the pool's answer. */
export const stampResolvedTrust = (
  segment: { readonly speakerId: string | undefined; readonly source: TrustSource },
  snap: TrustSnapshot
): StampedTrust => {
  const speakerEntityId = segment.speakerId ? entityOf(snap, segment.speakerId) : undefined
  if (!segment.source.hasServerSource)
    return { speakerTrust: segment.source.legacy ?? null, speakerEntityId, gated: undefined }
  const resolved = resolveTrust(snap, segment.speakerId, { tier: segment.source.tier, base: segment.source.base })
  if (resolved !== undefined) return { speakerTrust: resolved, speakerEntityId, gated: undefined }
  const gated =
    segment.speakerId && barrierPending(snap, accountPlatform(segment.speakerId)) ? "legacy_import_pending" : undefined
  return { speakerTrust: null, speakerEntityId, gated }
}

/** What a segment settles into the pool once its facts are written. */
export interface TrustSegment {
  readonly speakerId: string | undefined
  readonly source: TrustSource
  /** Owner signal events produced for this segment (each names its target in `speaker_id`). */
  readonly signalEvents: ReadonlyArray<SignalEvent>
  /** The activity to count: `source.activityEvents` for a concluded segment, `[]` for a failed one. */
  readonly activityEvents: ReadonlyArray<ActivityEvent>
}

/** N.E.K.O.'s `_trust_mutation_for`: undefined when the segment has nothing to settle. */
export const trustMutationFor = (segment: TrustSegment): TrustMutation | undefined =>
  segment.signalEvents.length === 0 && segment.activityEvents.length === 0 && !segment.source.channel
    ? undefined
    : {
        speakerAccountId: segment.speakerId,
        activityEvents: segment.activityEvents,
        signalEvents: segment.signalEvents,
        channel: segment.source.channel
      }

/** The per-segment `trust` block of the response (the same keys in both shapes). */

/** N.E.K.O.'s `_trust_response_block`; `persisted: null` means the segment had nothing to settle. */
export const trustResponseBlock = (
  segment: { readonly source: TrustSource; readonly signalEvents: ReadonlyArray<SignalEvent> },
  stamped: StampedTrust,
  result: TrustApplyResult | undefined,
  outcome: MutationOutcome = noOutcome
): TrustBlock => {
  const attempted = segment.source.hasServerSource || segment.signalEvents.length > 0
  if (!attempted)
    return {
      resolved: stamped.speakerTrust,
      persisted: null,
      signals_applied: 0,
      activity_applied: 0,
      gated: null,
      channel_collision: false
    }
  return {
    resolved: stamped.speakerTrust,
    persisted: result === undefined ? null : result.persisted,
    signals_applied: outcome.signalsApplied,
    activity_applied: outcome.activityApplied,
    gated: stamped.gated !== undefined || outcome.signalsDeferred > 0 ? "legacy_import_pending" : null,
    channel_collision: outcome.channelCollision
  }
}
