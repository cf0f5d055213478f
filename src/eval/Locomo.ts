/**
 * LoCoMo (`locomo10.json`, product.md §8) decoded with Schema: per conversation the two speakers, the
 * sessions in order with their start time (`session_N_date_time`, read as local time) and turns (speaker,
 * `dia_id`, text, `blip_caption`), and the questions with category and evidence. The audited corrections
 * (`locomo10_audit_errors.json`) replace a question's evidence and category when its `question_id` and
 * question text match. Evidence ids are normalised (`D30:05` → `D30:5`, `D:11:26` → `D11:26`, several ids in
 * one string split); ids naming no turn of the conversation are dropped, so a question may end with none.
 */
import { Effect, Option, Schema } from "effect"
import { existsSync, readFileSync } from "node:fs"
import * as path from "node:path"
import { parseLocal } from "../domain/LocalTime.js"

export class LocomoDataError extends Schema.TaggedError<LocomoDataError>()("LocomoDataError", {
  message: Schema.String
}) {}

const RawTurn = Schema.Struct({
  speaker: Schema.String,
  dia_id: Schema.String,
  text: Schema.String,
  blip_caption: Schema.optional(Schema.NullOr(Schema.String))
})
const RawQa = Schema.Struct({
  question: Schema.String,
  evidence: Schema.Array(Schema.String),
  category: Schema.Number
})
const RawConversation = Schema.Struct(
  { speaker_a: Schema.String, speaker_b: Schema.String },
  Schema.Record({ key: Schema.String, value: Schema.Union(Schema.String, Schema.Array(RawTurn)) })
)
const RawSample = Schema.Struct({
  sample_id: Schema.String,
  conversation: RawConversation,
  qa: Schema.Array(RawQa)
})
const LocomoFile = Schema.parseJson(Schema.Array(RawSample))

const AuditEntry = Schema.Struct({
  question_id: Schema.String,
  question: Schema.String,
  category: Schema.Number,
  correct_evidence: Schema.Array(Schema.String)
})
const AuditFile = Schema.parseJson(Schema.Array(AuditEntry))
export type AuditEntry = typeof AuditEntry.Type

export interface Turn {
  readonly speaker: string
  readonly diaId: string
  readonly text: string
  readonly caption: string | undefined
}

export interface Session {
  readonly index: number
  readonly dateTime: string
  /** The session's start, epoch ms in the process's local time zone. */
  readonly startMillis: number
  readonly turns: ReadonlyArray<Turn>
}

export interface Question {
  /** `locomo_<conversation index>_qa<0-based qa index>`, the audit's key. */
  readonly id: string
  readonly question: string
  readonly category: number
  readonly evidence: ReadonlyArray<string>
}

export interface Conversation {
  readonly index: number
  readonly sampleId: string
  readonly speakerA: string
  readonly speakerB: string
  readonly sessions: ReadonlyArray<Session>
  readonly questions: ReadonlyArray<Question>
}

const months = [
  "january",
  "february",
  "march",
  "april",
  "may",
  "june",
  "july",
  "august",
  "september",
  "october",
  "november",
  "december"
]
const pad = (n: number) => String(n).padStart(2, "0")

/** `1:56 pm on 8 May, 2023` → epoch ms of that local time. */
export const parseSessionTime = (text: string): Option.Option<number> => {
  const m = /^\s*(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})\s*$/i.exec(text)
  if (!m) return Option.none()
  const [, h, mi, ampm, d, month, y] = m
  const mo = months.indexOf((month ?? "").toLowerCase())
  if (mo < 0) return Option.none()
  const hour = (Number(h) % 12) + ((ampm ?? "").toLowerCase() === "pm" ? 12 : 0)
  return Option.fromNullable(parseLocal(`${y}-${pad(mo + 1)}-${pad(Number(d))} ${pad(hour)}:${mi}`))
}

/** Splits and normalises evidence strings into `D<session>:<turn>` ids, in order, without repeats. */
export const normaliseEvidence = (raw: ReadonlyArray<string>): Array<string> => {
  const out: Array<string> = []
  for (const part of raw.flatMap((r) => r.split(/[;,\s]+/))) {
    const m = /^D:?(\d+):(\d+)$/i.exec(part.trim())
    if (m) out.push(`D${Number(m[1])}:${Number(m[2])}`)
  }
  return [...new Set(out)]
}

const decodeSample = (sample: typeof RawSample.Type, index: number): Effect.Effect<Conversation, LocomoDataError> =>
  Effect.gen(function* () {
    const c = sample.conversation
    const numbers = Object.keys(c)
      .flatMap((k) => Option.toArray(Option.fromNullable(/^session_(\d+)$/.exec(k)?.[1])))
      .map(Number)
      .sort((a, b) => a - b)
    const sessions: Array<Session> = []
    for (const n of numbers) {
      const turns = c[`session_${n}`]
      const dateTime = c[`session_${n}_date_time`]
      if (typeof turns === "string" || turns === undefined || turns.length === 0) continue
      if (typeof dateTime !== "string") {
        return yield* new LocomoDataError({ message: `${sample.sample_id}: session_${n} has no date_time` })
      }
      const startMillis = parseSessionTime(dateTime)
      if (Option.isNone(startMillis)) {
        return yield* new LocomoDataError({ message: `${sample.sample_id}: unreadable date_time "${dateTime}"` })
      }
      sessions.push({
        index: n,
        dateTime,
        startMillis: startMillis.value,
        turns: turns.map((t) => ({
          speaker: t.speaker,
          diaId: t.dia_id,
          text: t.text,
          caption: t.blip_caption ?? undefined
        }))
      })
    }
    const known = new Set(sessions.flatMap((s) => s.turns.map((t) => t.diaId)))
    const questions = sample.qa.map((q, i) => ({
      id: `locomo_${index}_qa${i}`,
      question: q.question,
      category: q.category,
      evidence: normaliseEvidence(q.evidence).filter((e) => known.has(e))
    }))
    return { index, sampleId: sample.sample_id, speakerA: c.speaker_a, speakerB: c.speaker_b, sessions, questions }
  })

/** Replaces evidence and category of audited questions (matched by id and question text). */
export const applyCorrections = (
  conversation: Conversation,
  audit: ReadonlyArray<AuditEntry>
): { readonly conversation: Conversation; readonly applied: number } => {
  const byId = new Map(audit.map((a) => [a.question_id, a]))
  const known = new Set(conversation.sessions.flatMap((s) => s.turns.map((t) => t.diaId)))
  let applied = 0
  const questions = conversation.questions.map((q) => {
    const a = byId.get(q.id)
    if (a === undefined || a.question.trim() !== q.question.trim()) return q
    applied++
    return { ...q, category: a.category, evidence: normaliseEvidence(a.correct_evidence).filter((e) => known.has(e)) }
  })
  return { conversation: { ...conversation, questions }, applied }
}

const readText = (file: string) =>
  Effect.try({
    try: () => readFileSync(file, "utf8"),
    catch: (e) => new LocomoDataError({ message: `cannot read ${file}: ${e instanceof Error ? e.message : String(e)}` })
  })

const decodeWith =
  <A, I>(schema: Schema.Schema<A, I>, file: string) =>
  (text: string) =>
    Schema.decodeUnknown(schema)(text).pipe(
      Effect.mapError((e) => new LocomoDataError({ message: `${file} does not decode: ${e.message.slice(0, 500)}` }))
    )

export const decodeLocomo = (text: string, file = "locomo10.json") =>
  Effect.flatMap(decodeWith(LocomoFile, file)(text), (samples) => Effect.forEach(samples, decodeSample))

export const decodeAudit = (text: string, file = "locomo10_audit_errors.json") => decodeWith(AuditFile, file)(text)

/**
 * Loads `dataFile` and applies the audited corrections from `auditFile` (required when given), else from
 * `locomo10_audit_errors.json` beside it when that exists. `auditFile` in the result names the file used;
 * `corrections[i]` counts the questions of conversation i the audit corrected.
 */
export const loadLocomo = (dataFile: string, auditFile?: string) =>
  Effect.gen(function* () {
    const conversations = yield* Effect.flatMap(readText(dataFile), (t) => decodeLocomo(t, dataFile))
    const auditPath = auditFile ?? path.join(path.dirname(dataFile), "locomo10_audit_errors.json")
    if (auditFile === undefined && !existsSync(auditPath)) {
      return { conversations, corrections: conversations.map(() => 0), auditFile: undefined }
    }
    const audit = yield* Effect.flatMap(readText(auditPath), (t) => decodeAudit(t, auditPath))
    const corrected = conversations.map((c) => applyCorrections(c, audit))
    return {
      conversations: corrected.map((c) => c.conversation),
      corrections: corrected.map((c) => c.applied),
      auditFile: auditPath
    }
  })
