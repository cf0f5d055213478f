/**
 * The contract checks of the group-chat routes' bodies (neko-compat §1.7; the bodies' Schemas are the route table's,
 * api/GroupSchemas.ts), as pure functions: N.E.K.O.'s limits (1..32 facts of 1..2000 characters, 1..8 subjects,
 * `scoped_history` with either `input_history` + `subject` or 1..8 `segments` of 1..200 messages and 200 in all,
 * speaker labels of at most 64 characters, display names likewise) and its 422 messages. A check returns the parsed
 * request or the `detail` text of the 422.
 */
import { Either, Schema } from "effect"
import { type ScopedFactsBody, type ScopedHistoryBody, type SegmentBody } from "../api/GroupSchemas.js"
import { normaliseMessage, type StoredMessage } from "../domain/Message.js"
import { subjectFromWire, type SubjectWire, type MemorySubject } from "../domain/Subject.js"
import { normalizeAccountId } from "../trust/Identity.js"
import { resolveTrustSource, type TrustSource } from "../trust/SegmentTrust.js"
import type { Provenance } from "./ScopedWrite.js"

export const MAX_FACTS = 32
export const MAX_FACT_CHARS = 2000
export const MAX_SUBJECTS = 8
export const MAX_SEGMENTS = 8
export const MAX_MESSAGES = 200
export const MAX_LABEL_CHARS = 64

export interface ScopedFact {
  readonly text: string
  readonly importance: number
  readonly source: "user_observation" | "ai_disclosure"
}

/** One speaker's slice of a digest: its messages, whose memory it is, and who spoke (for the prompt). */
export interface Segment {
  readonly messages: ReadonlyArray<StoredMessage>
  readonly subject: MemorySubject
  /** The speaker's name in the prompt; absent for a group digest whose lines name their speakers. */
  readonly speakerLabel: string | undefined
  readonly speakerId: string | undefined
  readonly displayName: string | undefined
  readonly body: SegmentBody | ScopedHistoryBody
  readonly trust: TrustSource
  /** Whether it came in a `segments` batch (whose bodies share the batch content budget, BatchBudget.ts). */
  readonly batched?: boolean | undefined
  /** Who said it, stamped on the segment's new user observations (set once the trust pool was read). */
  readonly provenance?: Provenance | undefined
}

const structural = /[[\]|]/g

/** A label stripped of what could forge prompt structure (brackets, bars, line breaks, control characters). */
export const sanitizeLabel = (label: string): string =>
  label
    .replace(structural, " ")
    .replace(/\p{C}/gu, " ")
    .split(/\s+/)
    .filter((w) => w !== "")
    .join(" ")
    .slice(0, MAX_LABEL_CHARS)
    .trim()

export const subjectOf = (wire: SubjectWire) => subjectFromWire(wire)

export const subjectsOf = (wires: ReadonlyArray<SubjectWire>): Either.Either<ReadonlyArray<MemorySubject>, string> =>
  wires.length < 1 || wires.length > MAX_SUBJECTS
    ? Either.left(`subjects must contain 1..${MAX_SUBJECTS} items`)
    : Either.all(wires.map(subjectFromWire))

export const displayNameOf = (raw: string | null | undefined, context: string) => {
  const v = (raw ?? "").trim()
  if (v === "") return Either.right(undefined)
  if (v.length > MAX_LABEL_CHARS)
    return Either.left(`${context}: display_name must contain at most ${MAX_LABEL_CHARS} characters`)
  const clean = sanitizeLabel(v)
  return Either.right(clean === "" ? undefined : clean)
}

export const factsOf = (facts: typeof ScopedFactsBody.Type.facts): Either.Either<ReadonlyArray<ScopedFact>, string> => {
  if (facts.length < 1 || facts.length > MAX_FACTS) return Either.left(`facts must contain 1..${MAX_FACTS} items`)
  const out: Array<ScopedFact> = []
  for (const f of facts) {
    const text = f.text.trim()
    if (text === "" || text.length > MAX_FACT_CHARS)
      return Either.left(`each fact text must contain 1..${MAX_FACT_CHARS} characters`)
    out.push({ text, importance: f.importance, source: f.source })
  }
  return Either.right(out)
}

const decodeList = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(Schema.Unknown)))

const messagesOf = (raw: string, prefix: string): Either.Either<ReadonlyArray<StoredMessage>, string> => {
  const list = decodeList(raw)
  if (Either.isLeft(list)) return Either.left(`${prefix}invalid input_history`)
  const messages = list.right.map(normaliseMessage)
  return messages.length < 1 || messages.length > MAX_MESSAGES
    ? Either.left(`${prefix}input_history must contain 1..${MAX_MESSAGES} messages`)
    : Either.right(messages)
}

const speakerIdOf = (raw: string | null | undefined, prefix: string) => {
  if (raw === undefined || raw === null) return Either.right(undefined)
  const id = normalizeAccountId(raw)
  return id === undefined ? Either.left(`${prefix}invalid speaker_id`) : Either.right(id)
}

const singleOnly = [
  "input_history",
  "subject",
  "speaker_label",
  "speaker_trust",
  "speaker_id",
  "display_name",
  "speaker_tier",
  "speaker_base_trust",
  "speaker_activity_events",
  "speaker_channel"
] as const

/** The segments of a `scoped_history` request, single or batched, or the 422 detail. */
export const segmentsOf = (body: ScopedHistoryBody): Either.Either<ReadonlyArray<Segment>, string> =>
  Either.gen(function* () {
    if (body.segments !== undefined && body.segments !== null) {
      if (singleOnly.some((k) => body[k] !== undefined && body[k] !== null) || body.speaker_is_owner)
        return yield* Either.left("segments is exclusive with the single-subject fields")
      if (body.segments.length < 1 || body.segments.length > MAX_SEGMENTS)
        return yield* Either.left(`segments must contain 1..${MAX_SEGMENTS} items`)
      const out: Array<Segment> = []
      let total = 0
      for (const [i, seg] of body.segments.entries()) {
        const prefix = `segment ${i + 1}: `
        const messages = yield* messagesOf(seg.input_history, prefix)
        total += messages.length
        const raw = seg.speaker_label.trim()
        if (raw === "") return yield* Either.left(`${prefix}speaker_label is required`)
        if (raw.length > MAX_LABEL_CHARS)
          return yield* Either.left(`${prefix}speaker_label must contain at most ${MAX_LABEL_CHARS} characters`)
        const subject = yield* subjectFromWire(seg.subject)
        const label = sanitizeLabel(raw) || sanitizeLabel(subject.subjectId) || "unknown speaker"
        const speakerId = yield* speakerIdOf(seg.speaker_id, prefix)
        const trust = yield* resolveTrustSource(seg, prefix, speakerId)
        const displayName = yield* displayNameOf(seg.display_name, `segment ${i + 1}`)
        out.push({ messages, subject, speakerLabel: label, speakerId, displayName, body: seg, trust, batched: true })
      }
      if (total > MAX_MESSAGES)
        return yield* Either.left(`segments must contain at most ${MAX_MESSAGES} messages in total`)
      return out
    }
    if (body.input_history === undefined || body.input_history === null || !body.subject)
      return yield* Either.left("either segments or input_history+subject is required")
    const messages = yield* messagesOf(body.input_history, "")
    const raw = (body.speaker_label ?? "").trim()
    if (raw.length > MAX_LABEL_CHARS)
      return yield* Either.left(`speaker_label must contain at most ${MAX_LABEL_CHARS} characters`)
    const label = raw === "" ? undefined : sanitizeLabel(raw)
    if (label === "") return yield* Either.left("speaker_label must contain non-structural characters")
    const speakerId = yield* speakerIdOf(body.speaker_id, "")
    const trust = yield* resolveTrustSource(
      label === undefined ? { ...body, speaker_trust: undefined } : body,
      "",
      speakerId
    )
    const subject = yield* subjectFromWire(body.subject)
    const displayName = yield* displayNameOf(body.display_name, "scoped_history")
    return [{ messages, subject, speakerLabel: label, speakerId, displayName, body, trust }]
  })
