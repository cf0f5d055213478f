/**
 * `kioku eval memory`: for each language of the set (MemorySet.ts), a fresh memory root with one character
 * card and a real server (MemoryServer.ts); the conversation of MemoryDialogue.ts sent over HTTP; then
 * `POST /internal/maintenance/run_once` until a pass changes nothing. With vectors on (the default) it waits
 * for the server's "embedding model ready" log line — the only signal the server gives — and runs maintenance
 * (which backfills vectors) until `vectors.db` stops changing. It then reads the rows and facts back
 * (MemoryFiles.ts), asks every question through `POST /query_memory/{name}` and scores (MemoryScore.ts).
 * Roots live in a temporary directory removed at the end unless `workDir` is given; the built embedding
 * model is cached across runs (`<workDir>/embedding_models`, else in the OS temp directory).
 */
import { MaintenanceRan, MaintenanceReport } from "../api/Schemas.js"
import { Duration, Effect, Schema } from "effect"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { messagesOf, sessionsOf, turnsOf, type DialogueTurn } from "./MemoryDialogue.js"
import { readFacts, readReflections, readRows, readVectors, vectorFingerprint } from "./MemoryFiles.js"
import { scoreLanguage, type Answer, type LanguageScore, type RowOwner } from "./MemoryScore.js"
import { startServer, type RunningServer } from "./MemoryServer.js"
import { loadMemorySets, type MemoryLanguage, type MemorySet } from "./MemorySet.js"
import { EvalError } from "./Provenance.js"

export interface MemoryEvalOptions {
  readonly data: string
  readonly cli: string
  readonly languages?: ReadonlyArray<MemoryLanguage> | undefined
  /** Vectors on (default): wait for the embedding model and the backfill before asking. */
  readonly vectors?: boolean | undefined
  /** A JSON file of tunables laid under the harness's own (`vectors_enabled`, `embedding_cache_dir`). */
  readonly configFile?: string | undefined
  readonly workDir?: string | undefined
  readonly sessionSize?: number | undefined
  /** How long to wait for the embedding model (building it takes a while on a first run). */
  readonly vectorsTimeout?: Duration.DurationInput | undefined
  readonly progress?: ((line: string) => Effect.Effect<void>) | undefined
  /** Called before each language: how many are done, of how many, and which one comes next. */
  readonly step?: ((done: number, total: number, label: string) => Effect.Effect<void>) | undefined
}

export interface LanguageRun {
  readonly language: MemoryLanguage
  readonly character: string
  readonly score: LanguageScore
  readonly reflections: number
  readonly maintenancePasses: number
  readonly vectors: { readonly model: string | null; readonly factsWithVectors: number }
  readonly seconds: number
}

const decodeRunOnce = Schema.decodeUnknown(MaintenanceRan)
const decodeStatus = Schema.decodeUnknown(Schema.Struct({ status: Schema.String }))
const decodeQuery = Schema.decodeUnknown(
  Schema.Struct({ results: Schema.Array(Schema.Struct({ tier: Schema.String, text: Schema.String })) })
)
const decodeConfig = Schema.decodeUnknown(
  Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)

const maxPasses = 10
const maxBackfillPasses = 20
/** The embedder's outcome in the server log: ready (with its `modelId` annotation) or disabled (with a reason). */
const modelLine =
  /embedding model ready\n(?: {2}[^\n]*\n)*? {2}modelId: \S+\n|vectors disabled[^\n]*\n(?: {2}[^\n]*\n)*/

const failWith = (what: string) => (e: { readonly message: string }) =>
  new EvalError({ message: `${what}: ${e.message}` })

const seconds = (d: Duration.Duration) => Duration.toMillis(d) / 1000

const quiet = (r: typeof MaintenanceReport.Type) =>
  r.outboxOps === 0 &&
  r.factsAdded === 0 &&
  r.factsMerged === 0 &&
  r.reflectionsAdded === 0 &&
  r.reflectionsChanged === 0 &&
  r.evidenceSwept === 0 &&
  !r.compressed

const runOnce = (server: RunningServer) =>
  server.post("/internal/maintenance/run_once", {}).pipe(
    Effect.flatMap((body) => Effect.mapError(decodeRunOnce(body), failWith("run_once"))),
    Effect.map((r) => r.ran.every(quiet))
  )

const sendTurn = (server: RunningServer, name: string, turn: DialogueTurn, route: "cache" | "process") =>
  server.post(`/${route}/${name}`, { input_history: JSON.stringify(messagesOf(turn)) }).pipe(
    Effect.flatMap((body) => Effect.mapError(decodeStatus(body), failWith(`/${route}`))),
    Effect.filterOrFail(
      (b) => b.status !== "error",
      () => new EvalError({ message: `/${route} answered status "error"` })
    )
  )

/** Writes the character card and the tunables file of one language's root; returns the config file. */
const prepareRoot = (root: string, set: MemorySet, options: MemoryEvalOptions, modelCache: string) =>
  Effect.gen(function* () {
    const base =
      options.configFile === undefined
        ? {}
        : yield* Effect.try({
            try: () => readFileSync(options.configFile ?? "", "utf8"),
            catch: (e) => new EvalError({ message: `cannot read ${options.configFile}: ${String(e)}` })
          }).pipe(Effect.flatMap((t) => Effect.mapError(decodeConfig(t), failWith(options.configFile ?? ""))))
    const configFile = path.join(root, "eval-config.json")
    yield* Effect.try({
      try: () => {
        mkdirSync(path.join(root, "config"), { recursive: true })
        const card = { 猫娘: { [set.character]: {} }, 当前猫娘: set.character }
        writeFileSync(path.join(root, "config", "characters.json"), JSON.stringify(card, null, 2))
        const tunables = { ...base, vectors_enabled: options.vectors ?? true, embedding_cache_dir: modelCache }
        writeFileSync(configFile, JSON.stringify(tunables, null, 2))
      },
      catch: (e) => new EvalError({ message: `cannot prepare ${root}: ${String(e)}` })
    })
    return configFile
  })

const evaluateLanguage = (set: MemorySet, root: string, modelCache: string, options: MemoryEvalOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      const progress = options.progress ?? (() => Effect.void)
      const say = (line: string) => progress(`[${set.language}] ${line}`)
      const dataDir = path.join(root, "memory")
      const configFile = yield* prepareRoot(root, set, options, modelCache)
      const server = yield* startServer({ cli: options.cli, dataDir, configFile })
      const name = encodeURIComponent(set.character)
      const turns = turnsOf(set)
      const sessions = sessionsOf(turns, options.sessionSize)
      const [sendTime] = yield* Effect.timed(
        Effect.forEach(sessions, (session) =>
          Effect.gen(function* () {
            yield* server.getText(`/new_dialog/${name}`)
            for (const [i, turn] of session.entries())
              yield* sendTurn(server, name, turn, i === session.length - 1 ? "process" : "cache")
          })
        )
      )
      yield* say(`${turns.length} user turns in ${sessions.length} sessions sent in ${seconds(sendTime).toFixed(1)} s`)
      let passes = 0
      for (let quietPass = false; !quietPass && passes < maxPasses; passes++) quietPass = yield* runOnce(server)
      const characterDir = path.join(dataDir, set.character)
      let model: string | null = null
      if (options.vectors ?? true) {
        const [waited, line] = yield* Effect.timed(
          server.waitForLog(modelLine, options.vectorsTimeout ?? Duration.minutes(30))
        )
        if (line.startsWith("vectors disabled")) return yield* new EvalError({ message: `[${set.language}] ${line}` })
        model = /modelId: (\S+)/.exec(line)?.[1] ?? "unknown"
        let before = vectorFingerprint(yield* readVectors(characterDir))
        for (let pass = 0; pass < maxBackfillPasses; pass++) {
          const quietPass = yield* runOnce(server)
          passes++
          const after = vectorFingerprint(yield* readVectors(characterDir))
          if (quietPass && after === before) break
          before = after
        }
        yield* say(`embedding model ${model} ready after ${seconds(waited).toFixed(1)} s`)
      }
      const rows = yield* readRows(characterDir)
      const owners = yield* ownersOf(rows, turns)
      const facts = yield* readFacts(characterDir)
      const reflections = yield* readReflections(characterDir)
      const vectorIds = new Set(
        (yield* readVectors(characterDir)).filter((v) => v.kind === "fact").map((v) => v.entry_id)
      )
      yield* say(
        `${passes} maintenance passes: ${facts.length} facts (${facts.filter((f) => vectorIds.has(f.id)).length} ` +
          `with vectors), ${reflections.length} reflections`
      )
      const [askTime, answers] = yield* Effect.timed(
        Effect.forEach(set.questions, (question) =>
          server.post(`/query_memory/${name}`, { query: question.text }).pipe(
            Effect.flatMap((body) => Effect.mapError(decodeQuery(body), failWith(`query ${question.id}`))),
            Effect.map((r): Answer => ({ question, rows: r.results }))
          )
        )
      )
      yield* say(`${answers.length} questions in ${seconds(askTime).toFixed(2)} s`)
      return {
        score: scoreLanguage({ set, owners, facts, answers }),
        reflections: reflections.length,
        passes,
        vectors: { model, factsWithVectors: facts.filter((f) => vectorIds.has(f.id)).length }
      }
    })
  )

/** Row id → the statement, filler or reply it stores; the rows must be exactly the messages sent, in order. */
const ownersOf = (
  rows: ReadonlyArray<{ readonly id: number; readonly text: string }>,
  turns: ReadonlyArray<DialogueTurn>
) =>
  Effect.gen(function* () {
    const sent = turns.flatMap(
      (t): ReadonlyArray<readonly [string, RowOwner]> => [
        [t.text, { kind: t.kind, id: t.id }],
        [t.ack, { kind: "ack", id: t.id }]
      ]
    )
    if (rows.length !== sent.length)
      return yield* new EvalError({ message: `time index holds ${rows.length} rows for ${sent.length} messages` })
    const owners = new Map<number, RowOwner>()
    for (const [i, row] of rows.entries()) {
      const [text, owner] = sent[i] ?? ["", { kind: "ack", id: "" }]
      if (row.text !== text) return yield* new EvalError({ message: `row ${row.id} does not hold message ${i + 1}` })
      owners.set(row.id, owner)
    }
    return owners
  })

const workRoot = (workDir: string | undefined) =>
  workDir === undefined
    ? Effect.acquireRelease(
        Effect.sync(() => mkdtempSync(path.join(tmpdir(), "kioku-eval-memory-"))),
        (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
      )
    : Effect.sync(() => {
        mkdirSync(workDir, { recursive: true })
        return mkdtempSync(path.join(workDir, "run-"))
      })

export const runMemoryEval = (options: MemoryEvalOptions) =>
  Effect.scoped(
    Effect.gen(function* () {
      const progress = options.progress ?? (() => Effect.void)
      const all = yield* loadMemorySets(options.data)
      const sets = all.filter((s) => options.languages === undefined || options.languages.includes(s.language))
      if (sets.length === 0) return yield* new EvalError({ message: "no memory set for the chosen languages" })
      const root = yield* workRoot(options.workDir)
      const modelCache =
        options.workDir === undefined
          ? path.join(tmpdir(), "kioku-eval-embedding-models")
          : path.join(path.resolve(options.workDir), "embedding_models")
      yield* progress(
        `memory eval: ${sets
          .map(
            (s) =>
              `${s.language} (${s.statements.length} statements, ${s.fillers.length} ` +
              `fillers, ${s.questions.length} questions)`
          )
          .join(", ")}; vectors ${(options.vectors ?? true) ? "on" : "off"}`
      )
      const step = options.step ?? (() => Effect.void)
      return yield* Effect.forEach(sets, (set, i) =>
        Effect.zipRight(
          step(i, sets.length, set.language),
          Effect.timed(evaluateLanguage(set, path.join(root, set.language), modelCache, options)).pipe(
            Effect.map(
              ([took, r]): LanguageRun => ({
                language: set.language,
                character: set.character,
                score: r.score,
                reflections: r.reflections,
                maintenancePasses: r.passes,
                vectors: r.vectors,
                seconds: seconds(took)
              })
            )
          )
        )
      )
    })
  )
