/**
 * Looking at a memory root from outside the server, as an operator would after a crash: a content snapshot
 * of the tree, every view decoded with the project's own Schemas, the raw messages of `time_indexed.db`,
 * and duplicate checks over facts and reflections.
 */
import Database from "better-sqlite3"
import { Either, Schema } from "effect"
import { createHash } from "node:crypto"
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { PromptLocaleView } from "../../src/character/locale/PromptLocale.js"
import { RecentFile } from "../../src/domain/Message.js"
import { FactsFile } from "../../src/facts/Fact.js"
import { CorrectionsFile, PersonaFile } from "../../src/persona/Persona.js"
import { ReviewState } from "../../src/recent/Review.js"
import { ReflectionsFile } from "../../src/reflection/Reflection.js"
import { EventLine, Sentinel } from "../../src/store/EventLog.js"
import { OutboxLine } from "../../src/store/Outbox.js"
import { until } from "./profile.js"

/** Relative path → sha256 of the content (directories map to "dir"), optionally skipping some paths. */
export const snapshot = (root: string, skip: (rel: string) => boolean = () => false): Record<string, string> => {
  if (!existsSync(root)) return {}
  const out: Record<string, string> = {}
  for (const rel of readdirSync(root, { recursive: true, encoding: "utf8" }).sort()) {
    if (skip(rel)) continue
    const full = path.join(root, rel)
    out[rel] = statSync(full).isDirectory()
      ? "dir"
      : createHash("sha256").update(readFileSync(full)).digest("hex").slice(0, 16)
  }
  return out
}

export const diff = (before: Record<string, string>, after: Record<string, string>): Array<string> =>
  [...new Set([...Object.keys(before), ...Object.keys(after)])]
    .filter((k) => before[k] !== after[k])
    .map((k) => `${k}: ${before[k] ?? "absent"} → ${after[k] ?? "absent"}`)

type Decoder = (text: unknown) => Either.Either<unknown, unknown>
const decoder = <A, I>(schema: Schema.Schema<A, I>): Decoder => Schema.decodeUnknownEither(Schema.parseJson(schema))
const anyJson = decoder(Schema.Unknown)
const shard = decoder(Schema.Array(Schema.Unknown))
/** The Schema each view is read with by the server; other JSON files must at least parse. */
const viewDecoders: Record<string, Decoder> = {
  "recent.json": decoder(RecentFile),
  "facts.json": decoder(FactsFile),
  "facts_archive.json": decoder(FactsFile),
  "reflections.json": decoder(ReflectionsFile),
  "persona.json": decoder(PersonaFile),
  "persona_corrections.json": decoder(CorrectionsFile),
  "events_applied.json": decoder(Sentinel),
  "review_state.json": decoder(ReviewState),
  "prompt_locale.json": decoder(PromptLocaleView)
}
const lineDecoders: Record<string, Decoder> = {
  "events.ndjson": decoder(EventLine),
  "outbox.ndjson": decoder(OutboxLine)
}

/** Every problem found decoding the views and journals under a character directory (empty: all decode). */
export const undecodable = (dir: string, database = true): Array<string> => {
  const problems: Array<string> = []
  if (!existsSync(dir)) return problems
  for (const rel of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const full = path.join(dir, rel)
    if (statSync(full).isDirectory()) continue
    const base = path.basename(rel)
    const text = readFileSync(full, "utf8")
    const lineDecode = lineDecoders[base]
    if (base.endsWith(".json")) {
      const decode = viewDecoders[rel] ?? (rel.includes(path.sep) ? shard : anyJson)
      if (Either.isLeft(decode(text))) problems.push(`${rel} does not decode`)
    } else if (lineDecode !== undefined) {
      const lines = text.split("\n").filter((l) => l.trim() !== "")
      const decode = lineDecode
      lines.forEach((l, i) => Either.isLeft(decode(l)) && problems.push(`${rel}:${i + 1} does not decode`))
    } else if (base.endsWith(".tmp")) problems.push(`${rel}: a temp file was left behind`)
  }
  const db = path.join(dir, "time_indexed.db")
  if (database && existsSync(db)) {
    const check = withDb(db, (d) => String(d.prepare("PRAGMA integrity_check").pluck().get()))
    if (check !== "ok") problems.push(`time_indexed.db integrity: ${check}`)
  }
  return problems
}

/**
 * Opens a copy of the database (with its WAL), so reading never touches the server's files and works through
 * `/proc/<pid>/root` paths, which SQLite would resolve to the host's view of the mount point.
 */
const withDb = <A>(file: string, f: (db: Database.Database) => A): A => {
  const copy = mkdtempSync(path.join(tmpdir(), "kioku-chaos-db-"))
  try {
    for (const suffix of ["", "-wal"]) {
      if (existsSync(file + suffix)) copyFileSync(file + suffix, path.join(copy, "copy.db" + suffix))
    }
    const db = new Database(path.join(copy, "copy.db"), { fileMustExist: true })
    try {
      return f(db)
    } finally {
      db.close()
    }
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

const Stored = Schema.parseJson(
  Schema.Struct({ type: Schema.String, data: Schema.Struct({ content: Schema.Unknown }) })
)
const decodeStored = Schema.decodeUnknownSync(Stored)
const contentOf = (m: { readonly data: { readonly content: unknown } }) =>
  typeof m.data.content === "string" ? m.data.content : JSON.stringify(m.data.content)

/** The content of every raw row of `time_indexed_original`, in row order. */
export const rowTexts = (dir: string): Array<string> => {
  const db = path.join(dir, "time_indexed.db")
  if (!existsSync(db)) return []
  const raw = withDb(db, (d) => d.prepare("SELECT message FROM time_indexed_original ORDER BY id").pluck().all())
  return raw.map((m) => contentOf(decodeStored(m)))
}

const decodeRecent = Schema.decodeUnknownSync(Schema.parseJson(RecentFile))
export const recentTexts = (dir: string): Array<string> => {
  const file = path.join(dir, "recent.json")
  return existsSync(file) ? decodeRecent(readFileSync(file, "utf8")).map(contentOf) : []
}

const decodeFacts = Schema.decodeUnknownSync(Schema.parseJson(FactsFile))
const decodeReflections = Schema.decodeUnknownSync(Schema.parseJson(ReflectionsFile))

const repeated = (xs: ReadonlyArray<string>) => xs.filter((x, i) => xs.indexOf(x) !== i)

/** Facts and reflections: their count, and any id or text that occurs twice (live file and archive). */
export const memories = (dir: string) => {
  const read = <A>(file: string, decode: (t: string) => ReadonlyArray<A>) =>
    existsSync(path.join(dir, file)) ? decode(readFileSync(path.join(dir, file), "utf8")) : []
  const facts = [...read("facts.json", decodeFacts), ...read("facts_archive.json", decodeFacts)]
  const reflections = read("reflections.json", decodeReflections)
  return {
    facts: facts.length,
    reflections: reflections.length,
    duplicates: [
      ...repeated(facts.map((f) => f.id)),
      ...repeated(facts.map((f) => f.text)),
      ...repeated(reflections.map((r) => r.id)),
      ...repeated(reflections.map((r) => r.text))
    ]
  }
}

/** The op ids of the outbox that have no `done` line yet. */
export const pendingOps = (dir: string): Array<string> => {
  const file = path.join(dir, "outbox.ndjson")
  if (!existsSync(file)) return []
  const decode = Schema.decodeUnknownEither(Schema.parseJson(OutboxLine))
  const open = new Set<string>()
  for (const raw of readFileSync(file, "utf8").split("\n")) {
    const line = decode(raw)
    if (Either.isLeft(line)) continue
    if (line.right.status === "pending") open.add(line.right.op_id)
    if (line.right.status === "done") open.delete(line.right.op_id)
  }
  return [...open]
}

/** Waits until no character has a pending outbox op and the tree has stopped changing for 1.5 s. */
export const quiet = async (memory: string, characters: ReadonlyArray<string>) => {
  let last = ""
  let stable = 0
  await until(
    "the server to go quiet",
    () => {
      try {
        const now = JSON.stringify(snapshot(memory))
        const open = characters.some((c) => pendingOps(path.join(memory, c)).length > 0)
        stable = now === last && !open ? stable + 1 : 0
        last = now
      } catch {
        stable = 0
      }
      return stable >= 15
    },
    120_000
  )
}
