/**
 * A character's persona files: `persona.json` (read with the v1 key migration and defaults), the
 * correction queue `persona_corrections.json` and the archive shards `persona_archive/`. Journal events
 * reach them as `PersonaOp`s applied in order with one write per file; every op is idempotent (upsert by
 * id, removal by id, archive skips ids already archived, a forget removes by id everywhere), so replay after a crash is safe.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import { readText, StoreError, writeAtomic } from "../store/DurableFs.js"
import * as ShardArchive from "../store/ShardArchive.js"
import * as ViewFile from "../store/ViewFile.js"
import {
  CorrectionsFile,
  entitySections,
  migrateKeys,
  PersonaEntry,
  PersonaFile,
  type Correction,
  type PersonaSection
} from "./Persona.js"
import { withFields } from "../domain/Shapes.js"

export type PersonaOp =
  | {
      readonly op: "upsert"
      readonly section: string
      readonly entry: PersonaEntry
      /** Fields the section itself takes (a subject's stamp); a section changing hands loses its display name. */
      readonly sectionFields?: Readonly<Record<string, unknown>>
    }
  | { readonly op: "remove"; readonly section: string; readonly id: string }
  | { readonly op: "archive"; readonly section: string; readonly entry: PersonaEntry; readonly at: string }
  /** Replaces the section's character-card entries, which go first in card order. */
  | { readonly op: "card"; readonly section: string; readonly entries: ReadonlyArray<PersonaEntry> }
  | { readonly op: "queue"; readonly correction: Correction }
  | { readonly op: "resolve"; readonly ids: ReadonlyArray<string> }
  | { readonly op: "attempts"; readonly counts: Readonly<Record<string, number>> }
  /** Forgetting: the entries leave every section and the archive, the corrections leave the queue. */
  | {
      readonly op: "forget"
      readonly ids: ReadonlyArray<string>
      readonly corrections: ReadonlyArray<string>
      /** Sections dropped whole, metadata included. */
      readonly sections?: ReadonlyArray<string>
    }

const decodeRaw = Schema.decodeUnknown(Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown })))
const decodeFile = Schema.decodeUnknown(PersonaFile)
const encodeFile = Schema.encode(PersonaFile)

const ensureSections = (p: PersonaFile): PersonaFile => {
  const out: Record<string, PersonaSection> = {}
  for (const s of entitySections) out[s] = p[s] ?? { facts: [] }
  return { ...out, ...p }
}

const restamp = (s: PersonaSection | undefined, fields: Readonly<Record<string, unknown>>): PersonaSection => {
  const current: Record<string, unknown> = { ...(s ?? { facts: [] }) }
  const changed = Object.entries(fields).some(([k, v]) => k !== "entity" && k in current && current[k] !== v)
  if (changed) delete current["display_name"]
  return { ...current, ...fields, facts: s?.facts ?? [] }
}

export const applyOps = (persona: PersonaFile, ops: ReadonlyArray<PersonaOp>): PersonaFile => {
  const p: Record<string, PersonaSection> = { ...persona }
  const facts = (s: string) => p[s]?.facts ?? []
  const put = (s: string, entries: ReadonlyArray<PersonaEntry>) => (p[s] = { ...(p[s] ?? {}), facts: entries })
  for (const o of ops) {
    if (o.op === "upsert") {
      const list = facts(o.section)
      if (o.sectionFields !== undefined) p[o.section] = restamp(p[o.section], o.sectionFields)
      put(
        o.section,
        list.some((e) => e.id === o.entry.id)
          ? list.map((e) => (e.id === o.entry.id ? o.entry : e))
          : [...list, o.entry]
      )
    } else if (o.op === "remove" || o.op === "archive") {
      const id = o.op === "remove" ? o.id : o.entry.id
      put(
        o.section,
        facts(o.section).filter((e) => e.id !== id)
      )
    } else if (o.op === "forget") {
      for (const s of o.sections ?? []) delete p[s]
      for (const s of Object.keys(p)) {
        if (facts(s).some((e) => o.ids.includes(e.id)))
          put(
            s,
            facts(s).filter((e) => !o.ids.includes(e.id))
          )
      }
    } else if (o.op === "card") {
      put(o.section, [...o.entries, ...facts(o.section).filter((e) => e.source !== "character_card")])
    }
  }
  return p
}

export const applyCorrections = (queue: ReadonlyArray<Correction>, ops: ReadonlyArray<PersonaOp>) => {
  let q = [...queue]
  for (const o of ops) {
    if (o.op === "queue" && !q.some((c) => c.correction_id === o.correction.correction_id)) q.push(o.correction)
    else if (o.op === "resolve") q = q.filter((c) => !o.ids.includes(c.correction_id))
    else if (o.op === "forget") q = q.filter((c) => !o.corrections.includes(c.correction_id))
    else if (o.op === "attempts") {
      q = q.map((c) => {
        const n = o.counts[c.correction_id]
        return n === undefined ? c : withFields(c, { resolve_attempts: n })
      })
    }
  }
  return q
}

export const make = (dir: string, options: { readonly maxPerShard: number }) => {
  const file = path.join(dir, "persona.json")
  const corrections = ViewFile.make(CorrectionsFile, path.join(dir, "persona_corrections.json"))
  const archive = ShardArchive.make(PersonaEntry, path.join(dir, "persona_archive"), {
    maxPerShard: options.maxPerShard,
    stamp: (e, archivedAt, shard) => withFields(e, { archived_at: archivedAt, archive_shard_path: shard })
  })

  /** The persona with its entity sections; `None` when persona.json does not exist yet. */
  const cached = ViewFile.stampCache(
    file,
    readText(file).pipe(
      Effect.flatMap(
        Option.match({
          onNone: () => Effect.succeed(Option.none<PersonaFile>()),
          onSome: (text) =>
            decodeRaw(text).pipe(
              Effect.flatMap((raw) => decodeFile(migrateKeys(raw))),
              Effect.map((p) => Option.some(ensureSections(p))),
              Effect.mapError((e) => new ViewFile.ViewDecodeError({ file, message: e.message.slice(0, 500) }))
            )
        })
      )
    )
  )
  const read = cached.read
  const load = Effect.map(
    read,
    Option.getOrElse(() => ensureSections({}))
  )
  const loadCorrections = Effect.map(
    corrections.read,
    Option.getOrElse((): ReadonlyArray<Correction> => [])
  )

  const write = (p: PersonaFile) =>
    encodeFile(p).pipe(
      Effect.mapError((e) => new StoreError({ op: "encode", file, message: e.message.slice(0, 500) })),
      Effect.flatMap((encoded) => writeAtomic(file, ViewFile.encodeJson(encoded)))
    )

  const apply = (ops: ReadonlyArray<PersonaOp>) =>
    Effect.gen(function* () {
      if (ops.length === 0) return
      const archived = ops.flatMap((o) => (o.op === "archive" ? [o] : []))
      for (const o of archived) yield* archive.add([o.entry], o.at)
      yield* archive.remove(ops.flatMap((o) => (o.op === "forget" ? o.ids : [])))
      if (ops.some((o) => ["upsert", "remove", "archive", "card", "forget"].includes(o.op))) {
        yield* write(applyOps(yield* load, ops))
      }
      if (ops.some((o) => ["queue", "resolve", "attempts", "forget"].includes(o.op))) {
        yield* corrections.write(applyCorrections(yield* loadCorrections, ops))
      }
    })

  const release = Effect.zipRight(cached.release, corrections.release)

  const held = () => cached.held() || corrections.held()

  return { file, read, load, loadCorrections, apply, archive, write, release, held }
}

export type PersonaStore = ReturnType<typeof make>
