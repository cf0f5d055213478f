/**
 * The group-chat routes `POST /internal/memory/{name}/scoped_facts|scoped_history|scoped_context|
 * scoped_forget|scoped_mentions` (neko-compat §1.7; entries in api/GroupRoutes.ts), with N.E.K.O.'s bodies, answers
 * and errors: a body that does not match the model is FastAPI's 422, a contract breach (counts, lengths, a malformed
 * subject) a 422 with its `detail`, an invalid name a 400; `scoped_history` answers 502 when extraction gave no
 * usable answer (the caller keeps its buffer and retries), `scoped_forget` 500 when a step failed (safe to retry).
 * `scoped_context` is text/plain. Nothing is written before every check passed.
 */
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Schema } from "effect"
import { normaliseLanguage } from "../domain/Locale.js"
import { subjectFields } from "../domain/Subject.js"
import type { Fact } from "../facts/Fact.js"
import { MemoryService, type MemoryError, type SegmentOutcome } from "../MemoryService.js"
import { api } from "../api/Api.js"
import type { TrustBlock } from "../api/GroupSchemas.js"
import { displayNameOf, factsOf, segmentsOf, subjectOf, subjectsOf, type Segment } from "../scoped/ScopedRequests.js"
import type { ScopedForgetStats } from "../scoped/ScopedCommands.js"
import { ownerJobs } from "../scoped/OwnerJobs.js"
import type { OwnerSignalEvent } from "../trust/OwnerSignals.js"
import { canonicalSubject } from "../trust/SubjectIdentity.js"
import { stampResolvedTrust, trustResponseBlock, type StampedTrust } from "../trust/SegmentTrust.js"
import type { TrustSnapshot } from "../trust/TrustSnapshot.js"
import { TrustService } from "../trust/TrustService.js"
import { modelBodyText } from "./Body.js"
import { detail, json, validation } from "./Responses.js"
import { failure } from "./Routes.js"

const nameParam = Effect.map(HttpRouter.params, (p) => p["name"] ?? "")

/** The body through `schema`, or FastAPI's 422 for a body that is not the model. */
const bodyOf = <A, I>(schema: Schema.Schema<A, I>, what: string) =>
  Effect.map(modelBodyText, (text) =>
    Either.mapLeft(Schema.decodeUnknownEither(Schema.parseJson(schema))(text), () =>
      validation(["body"], `body does not match the ${what} model`, "model_type")
    )
  )

const routed = <A>(
  work: Effect.Effect<A, MemoryError>,
  ok: (a: A) => HttpServerResponse.HttpServerResponse,
  onStoreError?: HttpServerResponse.HttpServerResponse
) =>
  Effect.catchAll(Effect.map(work, ok), (e) =>
    Effect.succeed(e._tag === "InvalidCharacterName" || onStoreError === undefined ? failure(e) : onStoreError)
  )

const ids = (facts: ReadonlyArray<Fact>) => facts.map((f) => f.id)

/** A segment routed to its canonical subject, with what its facts say of the speaker and its trust. */
interface Routed {
  readonly segment: Segment
  readonly stamped: StampedTrust
}

const route = (s: Segment, snap: TrustSnapshot): Routed => {
  const stamped = stampResolvedTrust({ speakerId: s.speakerId, source: s.trust }, snap)
  const provenance =
    s.speakerLabel === undefined || (s.body.speaker_label ?? "").trim() === ""
      ? undefined
      : {
          speaker_label: s.speakerLabel,
          ...(stamped.speakerTrust !== null ? { speaker_trust: stamped.speakerTrust } : {}),
          ...(s.speakerId !== undefined ? { speaker_id: s.speakerId } : {}),
          ...(s.speakerId !== undefined && stamped.speakerEntityId !== undefined
            ? { speaker_entity_id: stamped.speakerEntityId }
            : {})
        }
  return { segment: { ...s, subject: canonicalSubject(s.subject, snap), provenance }, stamped }
}

const identity = (f: Fact) => [f.id, String(f["subject_kind"]), String(f["subject_id"]), String(f["scope"])]

const segmentAnswer = (s: Segment, o: SegmentOutcome, trust: TrustBlock, events: ReadonlyArray<OwnerSignalEvent>) => {
  const created = o.status === "ok" ? o.written.created : []
  const reconciled = o.status === "ok" ? o.written.upgraded : []
  return {
    subject: subjectFields(s.subject),
    trust,
    status: o.status,
    created: created.length,
    dropped: 0,
    fact_ids: ids(created),
    fact_identities: [...created, ...reconciled].map(identity),
    created_fact_identities: created.map(identity),
    reconciled: reconciled.map((f) => ({ id: f.id })),
    trust_events: o.status === "ok" ? events : []
  }
}

/** N.E.K.O.'s sum of per-target counters: numbers add, flags or. */
const sumStats = (a: ScopedForgetStats, b: ScopedForgetStats): ScopedForgetStats => ({
  pending_dedup: a.pending_dedup + b.pending_dedup,
  prompt_locale: a.prompt_locale + b.prompt_locale,
  facts: a.facts + b.facts,
  facts_archive: a.facts_archive + b.facts_archive,
  reflections: a.reflections + b.reflections,
  surfaced: a.surfaced + b.surfaced,
  persona_entries: a.persona_entries + b.persona_entries,
  persona_section_dropped: a.persona_section_dropped || b.persona_section_dropped,
  corrections: a.corrections + b.corrections,
  display_name: a.display_name || b.display_name
})

const extractionFailed = detail(502, "scoped fact extraction failed; retry later")

const scopedFacts = Effect.gen(function* () {
  const memory = yield* MemoryService
  const name = yield* nameParam
  const body = yield* bodyOf(api.scopedFacts.body, "scoped facts")
  if (Either.isLeft(body)) return body.left
  const facts = factsOf(body.right.facts)
  if (Either.isLeft(facts)) return detail(422, facts.left)
  const requested = subjectOf(body.right.subject)
  if (Either.isLeft(requested)) return detail(422, requested.left)
  const subject = canonicalSubject(requested.right, yield* (yield* TrustService).snapshot)
  const displayName = displayNameOf(body.right.display_name, "scoped_facts")
  if (Either.isLeft(displayName)) return detail(422, displayName.left)
  const language = normaliseLanguage(body.right.language)
  const write = { subject, candidates: facts.right, displayName: displayName.right, language }
  return yield* routed(memory.scopedWrite(name, [write]), (written) => {
    const created = written[0]?.created ?? []
    return json({
      status: "stored",
      subject: subjectFields(subject),
      created: created.length,
      fact_ids: ids(created)
    })
  })
})

const scopedHistory = Effect.gen(function* () {
  const memory = yield* MemoryService
  const name = yield* nameParam
  const body = yield* bodyOf(api.scopedHistory.body, "scoped history")
  if (Either.isLeft(body)) return body.left
  const parsed = segmentsOf(body.right)
  if (Either.isLeft(parsed)) return detail(422, parsed.left)
  const trust = yield* TrustService
  const snap = yield* trust.snapshot
  const routedSegments = parsed.right.map((s) => route(s, snap))
  const segments = routedSegments.map((r) => r.segment)
  const language = normaliseLanguage(body.right.language)
  const batched = body.right.segments !== undefined && body.right.segments !== null
  const outcomes = yield* Effect.either(memory.scopedHistory(name, segments, language))
  if (Either.isLeft(outcomes)) return failure(outcomes.left)
  if (outcomes.right.every((o) => o.status === "failed")) return extractionFailed
  const jobs = ownerJobs(name, segments, outcomes.right, snap)
  const judged = yield* Effect.either(
    jobs.length === 0
      ? Effect.succeed([])
      : memory.scopedTrustSignals(
          name,
          jobs.map((j) => j.job)
        )
  )
  if (Either.isLeft(judged)) return failure(judged.left)
  const signals = segments.map((_, i): ReadonlyArray<OwnerSignalEvent> => {
    const k = jobs.findIndex((j) => j.position === i)
    return k < 0 ? [] : (judged.right[k] ?? [])
  })
  const settled = yield* trust.applyForSegments(
    segments.map((s, i) => ({
      speakerId: s.speakerId,
      source: s.trust,
      signalEvents: signals[i] ?? [],
      activityEvents: outcomes.right[i]?.status === "ok" ? s.trust.activityEvents : []
    }))
  )
  const answers = segments.map((s, i) =>
    segmentAnswer(
      s,
      outcomes.right[i]!,
      trustResponseBlock(
        { source: s.trust, signalEvents: signals[i] ?? [] },
        routedSegments[i]!.stamped,
        settled.result,
        settled.outcomes[i]
      ),
      signals[i] ?? []
    )
  )
  {
    if (batched) return json({ status: "processed", segments: answers })
    const answer = answers[0]!
    return json({
      status: "processed",
      subject: answer.subject,
      created: answer.created,
      fact_ids: answer.fact_ids,
      trust: answer.trust,
      trust_events: signals[0] ?? []
    })
  }
})

/**
 * The subjects of a `subjects` body widened to every account of the same participant (the identity graph),
 * or the 422 for a count outside 1..8 or a malformed subject.
 */
const subjectsFrom = (wires: typeof api.scopedContext.body.Type.subjects) =>
  Either.match(subjectsOf(wires), {
    onLeft: (message) => Effect.succeed(Either.left(detail(422, message))),
    onRight: (subjects) =>
      Effect.flatMap(TrustService, (trust) =>
        Effect.map(trust.foldRequestSubjects(subjects), (folded) => Either.right(folded.subjects))
      )
  })

const scopedContext = Effect.gen(function* () {
  const memory = yield* MemoryService
  const name = yield* nameParam
  const body = yield* bodyOf(api.scopedContext.body, "scoped context")
  if (Either.isLeft(body)) return body.left
  const subjects = yield* subjectsFrom(body.right.subjects)
  if (Either.isLeft(subjects)) return subjects.left
  return yield* routed(memory.scopedContext(name, subjects.right, normaliseLanguage(body.right.language)), (text) =>
    HttpServerResponse.text(text, { contentType: "text/plain; charset=utf-8" })
  )
})

const scopedMentions = Effect.gen(function* () {
  const memory = yield* MemoryService
  const name = yield* nameParam
  const body = yield* bodyOf(api.scopedMentions.body, "scoped mentions")
  if (Either.isLeft(body)) return body.left
  const subjects = yield* subjectsFrom(body.right.subjects)
  if (Either.isLeft(subjects)) return subjects.left
  const text = body.right.response_text.trim()
  if (text === "") return json({ status: "skipped" })
  return yield* routed(memory.scopedMentions(name, subjects.right, text), () => json({ status: "recorded" }))
})

const scopedForget = Effect.gen(function* () {
  const memory = yield* MemoryService
  const name = yield* nameParam
  const body = yield* bodyOf(api.scopedForget.body, "scoped forget")
  if (Either.isLeft(body)) return body.left
  const subject = subjectOf(body.right.subject)
  if (Either.isLeft(subject)) return detail(422, subject.left)
  const trust = yield* TrustService
  if (!(yield* trust.snapshot).loaded)
    return detail(503, "identity pool unreadable; refusing a partial scoped forget, retry once the trust pool loads")
  const targets = yield* trust.forgetFanoutTargets(subject.right)
  return yield* routed(
    Effect.map(
      Effect.forEach(targets, (t) => memory.scopedForget(name, t)),
      (all) => all.reduce(sumStats)
    ),
    (stats) =>
      json({
        status: "forgotten",
        subject: subjectFields(subject.right),
        forgotten_subjects: targets.map(subjectFields),
        ...stats
      }),
    detail(500, "scoped forget failed; retry is safe and idempotent")
  )
})

const answering = (handler: typeof scopedFacts) =>
  handler.pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response)))

/** The handlers of the route table's scoped entries (api/GroupRoutes.ts), mounted by http/Server.ts. */
export const scopedHandlers = {
  scopedFacts: answering(scopedFacts),
  scopedHistory: answering(scopedHistory),
  scopedContext: answering(scopedContext),
  scopedMentions: answering(scopedMentions),
  scopedForget: answering(scopedForget)
}
