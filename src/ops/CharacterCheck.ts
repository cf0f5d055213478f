/**
 * Read-only checks of one character directory, shared by `kioku doctor` and `kioku import-neko`: every JSON
 * view and archive shard decodes with the schema the runtime reads it with, the SQLite files pass
 * `quick_check` and carry N.E.K.O.'s table, the journal's lines parse and its sentinel names one of them,
 * the outbox parses; leftover temp files and unknown files are reported. Nothing here writes.
 */
import { Effect, Either, Option, ParseResult, Schema } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { Backoff } from "../reflection/ReflectionSynth.js"
import { SettingsFile } from "../persona/LegacySettings.js"
import { PromptLocaleView } from "../character/locale/PromptLocale.js"
import { SurfacedFile } from "../reflection/Surfacing.js"
import { RecentFile } from "../domain/Message.js"
import { DedupPair } from "../facts/DedupQueue.js"
import { Fact, FactsFile } from "../facts/Fact.js"
import { CorrectionsFile, PersonaEntry } from "../persona/Persona.js"
import * as PersonaStore from "../persona/PersonaStore.js"
import { RecentMetaView } from "../recent/RecentMeta.js"
import { ReviewState } from "../recent/Review.js"
import { Reflection, ReflectionsFile } from "../reflection/Reflection.js"
import { CursorsView } from "../store/Cursors.js"
import { EventLine, Sentinel } from "../store/EventLog.js"
import * as SubjectLocales from "../scoped/SubjectLocales.js"
import { OutboxLine } from "../store/Outbox.js"
import { withDatabase } from "./SqliteCopy.js"
import { errorText, innermost, type Collector, type CharacterSummary } from "./Findings.js"

type Decode = (text: string) => Either.Either<unknown, ParseResult.ParseError>
const decoder = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(Schema.parseJson(schema))
  return (text: string): Either.Either<A, ParseResult.ParseError> => decode(text)
}

/** The first issue of a decode failure, with its path: `at [0].id: Expected string, actual 1`. */
export const parseIssue = (e: ParseResult.ParseError): string => {
  const first = ParseResult.ArrayFormatter.formatErrorSync(e)[0]
  if (first === undefined) return "invalid"
  const at = first.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")
  return `${at === "" ? "" : `at ${at}: `}${first.message}`.slice(0, 200)
}

const KEEP = "kioku never overwrites it; repair the JSON or restore the file from a backup, then restart kioku"
const DERIVED = "delete it while kioku is stopped (bookkeeping only; it is rebuilt)"

const views: ReadonlyArray<readonly [string, Decode, string]> = [
  ["recent.json", decoder(RecentFile), `${KEEP} (new turns wait in memory meanwhile)`],
  ["facts.json", decoder(FactsFile), KEEP],
  ["facts_archive.json", decoder(FactsFile), KEEP],
  ["reflections.json", decoder(ReflectionsFile), KEEP],
  ["persona_corrections.json", decoder(CorrectionsFile), KEEP],
  ["cursors.json", decoder(CursorsView), "repair it, or delete it while kioku is stopped (extraction restarts)"],
  ["surfaced.json", decoder(SurfacedFile), "repair it, or delete it (surfacing feedback history is lost)"],
  ["events_applied.json", decoder(Sentinel), "delete it while kioku is stopped (the journal replays, idempotently)"],
  ["prompt_locale.json", decoder(PromptLocaleView), DERIVED],
  ["recent_meta.json", decoder(RecentMetaView), DERIVED],
  ["review_state.json", decoder(ReviewState), DERIVED],
  ["synth_backoff.json", decoder(Backoff), DERIVED],
  ["facts_pending_dedup.json", decoder(Schema.Array(DedupPair)), DERIVED],
  ["scoped_prompt_locales.json", decoder(SubjectLocales.LocalesFile), DERIVED],
  ["settings.json", decoder(SettingsFile), "repair it or delete it (a legacy read-only source for an empty persona)"],
  ["reflections_archive.json", decoder(Schema.Array(Reflection)), KEEP]
]

const shardDirs: ReadonlyArray<readonly [string, Decode]> = [
  ["facts_archive", decoder(Schema.Array(Fact))],
  ["reflection_archive", decoder(Schema.Array(Reflection))],
  ["persona_archive", decoder(Schema.Array(PersonaEntry))]
]

/** Files kioku or N.E.K.O. keep in a character directory besides the decoded views. */
const otherKnown = new Set([
  "persona.json",
  "events.ndjson",
  "events_rejected.ndjson",
  "outbox.ndjson",
  "time_indexed.db",
  "vectors.db",
  "turn_vectors.db",
  "facts_archive.json.last_attempt",
  "external_import_state.json",
  "subject_forget_tombstones.json",
  "anti_repeat_corpus.json",
  "startup_greetings.json",
  "user_directives.json"
])
const sqliteSidecar = /^(time_indexed|vectors|turn_vectors)\.db-(wal|shm|journal)$/
const tempFile = /\.[0-9a-f]{8}\.tmp$/

const readIfExists = (file: string, rel: string, c: Collector): string | undefined => {
  try {
    return fs.readFileSync(file, "utf8")
  } catch (e) {
    if (e instanceof Error && "code" in e && e.code === "ENOENT") return undefined
    c.problem(rel, `cannot be read: ${errorText(e)}`, "check its permissions and owner (chmod u+rw)")
    return undefined
  }
}

const checkDecode = (text: string, decode: Decode, rel: string, fix: string, c: Collector) => {
  const r = decode(text)
  if (Either.isLeft(r)) c.problem(rel, `does not decode: ${parseIssue(r.left)}`, fix)
}

const checkSqlite = (file: string, rel: string, table: string | undefined, fix: string, c: Collector) => {
  try {
    withDatabase(file, (db) => {
      const check = db.pragma("quick_check", { simple: true })
      if (check !== "ok") c.problem(rel, `integrity check failed: ${String(check).slice(0, 160)}`, fix)
      if (table === undefined) return
      const cols = db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table).map(String)
      const missing = ["id", "session_id", "message", "timestamp"].filter((n) => !cols.includes(n))
      if (missing.length > 0) c.problem(rel, `table ${table} lacks ${missing.join(", ")}`, fix)
    })
  } catch (e) {
    c.problem(rel, `cannot be opened: ${errorText(e)}`, fix)
  }
}

const ndjson = (text: string) => text.split("\n").flatMap((raw, i) => (raw.trim() === "" ? [] : [{ raw, line: i + 1 }]))

const checkJournal = (dir: string, rel: (f: string) => string, c: Collector): number => {
  const text = readIfExists(path.join(dir, "events.ndjson"), rel("events.ndjson"), c)
  const sentinelText = readIfExists(path.join(dir, "events_applied.json"), rel("events_applied.json"), c)
  if (text === undefined) return 0
  const decode = decoder(EventLine)
  const ids: Array<string> = []
  for (const { raw, line } of ndjson(text)) {
    const e = decode(raw)
    if (Either.isRight(e)) ids.push(e.right.event_id)
    else
      c.note(
        rel("events.ndjson"),
        `line ${line} does not parse (a torn write)`,
        "none needed: replay skips it and records it in events_rejected.ndjson"
      )
  }
  const sentinel = Option.flatMap(Option.fromNullable(sentinelText), (t) => Either.getRight(decoder(Sentinel)(t)))
  const last = Option.flatMap(sentinel, (s) => Option.fromNullable(s.last_applied_event_id))
  if (Option.isNone(last)) return ids.length
  const at = ids.indexOf(last.value)
  if (at < 0) {
    c.problem(
      rel("events_applied.json"),
      `names event ${last.value}, which is not in events.ndjson`,
      "delete events_applied.json while kioku is stopped (the whole journal replays, idempotently)"
    )
    return ids.length
  }
  return ids.length - at - 1
}

const checkOutbox = (dir: string, rel: (f: string) => string, c: Collector): number => {
  const text = readIfExists(path.join(dir, "outbox.ndjson"), rel("outbox.ndjson"), c)
  if (text === undefined) return 0
  const decode = decoder(OutboxLine)
  const open = new Set<string>()
  for (const { raw, line } of ndjson(text)) {
    const l = decode(raw)
    if (Either.isLeft(l)) {
      c.note(rel("outbox.ndjson"), `line ${line} does not parse`, "none needed: the outbox skips it (at-least-once)")
      continue
    }
    const op = l.right
    if (op.status === "pending" && op.type !== undefined) open.add(op.op_id)
    if (op.status === "done") open.delete(op.op_id)
  }
  return open.size
}

const checkShards = (dir: string, rel: (f: string) => string, c: Collector): number => {
  let n = 0
  for (const [sub, decode] of shardDirs) {
    const full = path.join(dir, sub)
    if (!fs.existsSync(full)) continue
    for (const f of fs.readdirSync(full).sort()) {
      if (!f.endsWith(".json")) continue
      const text = readIfExists(path.join(full, f), rel(`${sub}/${f}`), c)
      if (text === undefined) continue
      n++
      checkDecode(text, decode, rel(`${sub}/${f}`), `${KEEP} (its archived entries are invisible until then)`, c)
    }
  }
  return n
}

/** Checks `<root>/<name>`; findings name files as `<name>/<file>`. */
export const checkCharacter = (root: string, name: string, c: Collector, maxPerShard: number) =>
  Effect.gen(function* () {
    const dir = path.join(root, name)
    const rel = (f: string) => `${name}/${f}`
    let files = 0
    for (const [file, decode, fix] of views) {
      const text = readIfExists(path.join(dir, file), rel(file), c)
      if (text === undefined || (file === "recent.json" && text.trim() === "")) continue
      files++
      checkDecode(text, decode, rel(file), fix, c)
    }
    if (fs.existsSync(path.join(dir, "reflections_archive.json"))) {
      c.note(rel("reflections_archive.json"), "legacy flat reflection archive", "none: kioku shards it at next start")
    }
    if (fs.existsSync(path.join(dir, "persona.json"))) {
      files++
      const persona = yield* Effect.either(PersonaStore.make(dir, { maxPerShard }).read)
      if (Either.isLeft(persona))
        c.problem(rel("persona.json"), `does not decode: ${innermost(persona.left.message)}`, KEEP)
    }
    const dbFix = "stop kioku and restore it from a backup (or salvage it with `sqlite3 time_indexed.db .recover`)"
    if (fs.existsSync(path.join(dir, "time_indexed.db"))) {
      files++
      checkSqlite(path.join(dir, "time_indexed.db"), rel("time_indexed.db"), "time_indexed_original", dbFix, c)
    }
    for (const db of ["vectors.db", "turn_vectors.db"])
      if (fs.existsSync(path.join(dir, db))) {
        files++
        checkSqlite(path.join(dir, db), rel(db), undefined, "delete it; kioku rebuilds it", c)
      }
    const pastSentinel = checkJournal(dir, rel, c)
    const pending = checkOutbox(dir, rel, c)
    files += checkShards(dir, rel, c)
    const known = new Set([...views.map(([f]) => f), ...otherKnown, ...shardDirs.map(([d]) => d)])
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (tempFile.test(entry.name)) {
        c.problem(rel(entry.name), "temp file of an interrupted write (the view itself is intact)", "delete it")
      } else if (!known.has(entry.name) && !sqliteSidecar.test(entry.name)) {
        c.note(rel(entry.name), "unknown file; neither kioku nor N.E.K.O. reads it", "move it out if it is not yours")
      }
    }
    return {
      name,
      files_checked: files,
      events_past_sentinel: pastSentinel,
      outbox_pending: pending
    } satisfies CharacterSummary
  })
