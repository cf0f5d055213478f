/**
 * External-import persona material (neko-compat §1.6) folded into one entity's section as non-protected
 * `external_import` entries within the entity's token budget (neko 1000, master 600). Each batch has an
 * order-free fingerprint; every entry the import writes carries the fingerprints folded so far, so the same
 * batch again is a no-op. With a model (correction tier) the imported bucket and the new candidates are fused
 * into a fresh bucket that replaces the old one; the `local` provider appends the candidates that overlap no
 * entry of the section (the others are duplicates). Journaled as `persona.entry_removed` / `persona.fact_added`.
 */
import { Clock, Effect, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import type { Language } from "../domain/Locale.js"
import type { Speakers } from "../domain/Speakers.js"
import { LlmError } from "../llm/LlmClient.js"
import { PersonaTasks } from "./PersonaTasks.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import type { EventLine } from "../store/EventLog.js"
import type { Tunables } from "../Tunables.js"
import type { PersonaHost } from "./PersonaHost.js"
import { newEntry, type PersonaEntry, type PersonaFile } from "./Persona.js"
import { entryLine, PERSONA_FACT_ADDED, removedLine } from "./PersonaEvent.js"

export const PERSONA_BUDGETS: Readonly<Record<string, number>> = { neko: 1000, master: 600 }
export const EXTERNAL = "external_import"

export interface FusionInput {
  readonly text: string
  readonly source_file: string
}

const Folded = Schema.Struct({ folded_fingerprints: Schema.Array(Schema.String) })
const decodeFolded = Schema.decodeUnknownOption(Folded)
const norm = (text: string) => text.toLowerCase().split(/\s+/).filter(Boolean).join(" ")
const sha = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")

/** The fingerprint of one entity's candidates, independent of their order. */
export const fusionFingerprint = (texts: ReadonlyArray<string>): string => sha(texts.map(norm).sort().join("\n"))

const foldedOf = (entries: ReadonlyArray<PersonaEntry>): Set<string> =>
  new Set(
    entries.flatMap((e) =>
      Option.match(decodeFolded(e["external_import"]), { onNone: () => [], onSome: (m) => m.folded_fingerprints })
    )
  )

/** Highest importance first, whole entries while the budget lasts (at least one), duplicates dropped. */
const trim = (
  entries: ReadonlyArray<{ readonly text: string; readonly importance: number }>,
  budget: number,
  used: number,
  count: (text: string) => number
) => {
  const out: Array<string> = []
  const seen = new Set<string>()
  for (const e of [...entries].sort((a, b) => b.importance - a.importance)) {
    const key = norm(e.text)
    const n = count(e.text)
    if (key === "" || seen.has(key)) continue
    if (used + n > budget && (out.length > 0 || used > 0)) continue
    seen.add(key)
    used += n
    out.push(e.text.trim())
  }
  return out
}

export const make = (deps: {
  readonly tunables: Tunables
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: PersonaHost) => Language
  /** The persona with the character card synced. */
  readonly ensure: (state: PersonaHost) => Effect.Effect<PersonaFile, unknown>
}) =>
  Effect.gen(function* () {
    const tasks = yield* PersonaTasks
    const tokens = yield* Tokenizer

    /** Folds one entity's candidates in; `added` entries written, `skipped` candidates left out. */
    const fuse = (state: PersonaHost, entity: string, candidates: ReadonlyArray<FusionInput>, format: string) =>
      Effect.gen(function* () {
        const budget = PERSONA_BUDGETS[entity]
        const texts = candidates.map((c) => c.text.trim()).filter((t) => t !== "")
        if (budget === undefined || texts.length === 0) return { added: 0, skipped: texts.length }
        const fingerprint = fusionFingerprint(texts)
        const persona = yield* Effect.mapError(
          deps.ensure(state),
          () => new LlmError({ task: "persona.external_fusion", reason: "bad_answer", message: "persona unreadable" })
        )
        const entries = persona[entity]?.facts ?? []
        const bucket = entries.filter((e) => e.source === EXTERNAL && e.text !== "")
        const folded = foldedOf(bucket)
        if (folded.has(fingerprint)) return { added: 0, skipped: texts.length }
        const names = yield* deps.speakers
        const answer = yield* tasks.fuseExternal({
          existing: entries.filter((e) => e.text !== "").map((e) => e.text),
          bucket: bucket.map((e) => e.text),
          candidates: texts,
          who: entity === "neko" ? names.character : names.master,
          budget,
          overlapRatio: deps.tunables.contradiction_overlap_ratio,
          names,
          language: deps.language(state)
        })
        const count = (text: string) => tokens.count(text)
        const used = answer.fused ? 0 : bucket.reduce((n, e) => n + count(e.text), 0)
        const kept = trim(answer.entries, budget, used, count)
        if (answer.fused && kept.length === 0) {
          return yield* new LlmError({
            task: "persona.external_fusion",
            reason: "bad_answer",
            message: "fusion produced no entries"
          })
        }
        const ts = localIso(yield* Clock.currentTimeMillis)
        const metadata = {
          format,
          files: [...new Set(candidates.map((c) => c.source_file).filter((f) => f !== ""))].sort(),
          section: answer.fused ? "fused" : "merged",
          fusion_fingerprint: fingerprint,
          folded_fingerprints: [...new Set([...folded, fingerprint])].sort(),
          imported_at: ts,
          fused: answer.fused
        }
        const lines: Array<EventLine> = answer.fused
          ? bucket.map((e) => removedLine(crypto.randomUUID(), entity, e.id, "external_import_refold", ts))
          : []
        for (const text of kept) {
          const entry: PersonaEntry = {
            ...newEntry({
              id: `ext_${sha(`${entity}:${text}`).slice(0, 16)}`,
              text,
              source: EXTERNAL,
              sourceId: `${format}:fusion:${entity}`,
              createdAt: ts
            }),
            external_import: metadata
          }
          lines.push(entryLine(crypto.randomUUID(), PERSONA_FACT_ADDED, entity, entry, ts, { source: EXTERNAL }))
        }
        if (lines.length > 0) {
          yield* state.ensureDir
          yield* state.journal(lines)
        }
        return { added: kept.length, skipped: answer.fused ? 0 : texts.length - kept.length }
      })

    return { fuse }
  })
