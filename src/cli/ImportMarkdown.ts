/**
 * `kioku import-markdown <dir> --character NAME [--format openclaw|hermes] [--dry-run] [--port N]
 * [--data-dir DIR] [--config FILE]`: reads an OpenClaw or Hermes workspace directory (src/cli/MarkdownWorkspace.ts)
 * and imports it file by file through the import path of `POST /internal/memory/import_external_markdown` —
 * to the server on `--port`, else in process on the data directory — printing one line per file. `--dry-run`
 * prints the candidates instead. ZIP archives are not read (no archive library among the dependencies).
 */
import { Effect, Logger, LogLevel } from "effect"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { appLayer } from "../App.js"
import { loadSettings } from "../Config.js"
import type { Candidate, ImportOutcome } from "../facts/ExternalImport.js"
import { MemoryService } from "../MemoryService.js"
import * as Startup from "../Startup.js"
import { dataDirOf, envOr, parse, UsageError } from "./Args.js"
import { classify, MAX_FILE_BYTES, MAX_TOTAL_BYTES, parseWorkspace, type SourceFile } from "./MarkdownWorkspace.js"

const out = (text: string) => Effect.sync(() => process.stdout.write(`${text}\n`))
const utf8 = new TextDecoder("utf-8", { fatal: true })

/** The supported Markdown files under `root`, relative POSIX paths in sorted order. */
export const readWorkspace = (root: string): Array<SourceFile> => {
  const files: Array<SourceFile> = []
  let total = 0
  const names = readdirSync(root, { recursive: true, encoding: "utf8" }).sort()
  for (const name of names) {
    const rel = name.split(path.sep).join("/")
    const full = path.join(root, name)
    if (classify(rel) === undefined || !statSync(full).isFile()) continue
    const bytes = readFileSync(full)
    total += bytes.length
    if (bytes.length > MAX_FILE_BYTES) throw new Error(`Markdown file is too large: ${rel}`)
    if (total > MAX_TOTAL_BYTES) throw new Error("Markdown payload is too large")
    const text = utf8.decode(bytes).replace(/^\uFEFF/, "")
    files.push({ path: rel, content: text.replace(/\r\n?/g, "\n") })
  }
  return files
}

const summary = (file: string, n: number, o: ImportOutcome) =>
  `${o.status === "success" ? "imported" : o.status} ${file}: ${n} candidate(s), +${o.added_persona} persona, ` +
  `+${o.added_facts} facts, ${o.skipped_duplicates} duplicate(s)${o.detail ? ` — ${o.detail}` : ""}`

export const importMarkdown = (args: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const { values, positionals } = yield* parse(
      args,
      {
        character: { type: "string" },
        format: { type: "string" },
        "dry-run": { type: "boolean" },
        port: { type: "string" },
        "data-dir": { type: "string" },
        config: { type: "string" }
      },
      true
    )
    const [source, ...extra] = positionals
    if (source === undefined || extra.length > 0)
      return yield* new UsageError({ message: "import-markdown takes one workspace directory" })
    const character = values.character
    if (character === undefined) return yield* new UsageError({ message: "import-markdown needs --character NAME" })
    const format = values.format
    if (format !== undefined && format !== "openclaw" && format !== "hermes")
      return yield* new UsageError({ message: "--format must be openclaw or hermes" })
    if (source.toLowerCase().endsWith(".zip"))
      return yield* new UsageError({
        message: "ZIP archives are not read; unpack the workspace and pass its directory"
      })
    const parsed = yield* Effect.try({
      try: () => parseWorkspace(readWorkspace(path.resolve(source)), format),
      catch: (e) => new UsageError({ message: e instanceof Error ? e.message : String(e) })
    })
    yield* out(`${parsed.format} workspace: ${parsed.files.length} file(s), ${parsed.warnings} warning(s)`)
    if (values["dry-run"] === true) {
      for (const f of parsed.files) {
        yield* out(`would import ${f.path}: ${f.candidates.length} candidate(s)`)
        for (const c of f.candidates) {
          yield* out(
            `  ${c.target}/${c.entity}${c.event_date ? ` ${c.event_date}` : ""}: ${c.text.replace(/\n/g, " ")}`
          )
        }
      }
      return
    }
    const body = (candidates: ReadonlyArray<Candidate>, file: string, warnings: number) => ({
      character_name: character,
      source_format: parsed.format,
      imported_files: [file],
      candidates,
      warning_count: warnings
    })
    const files = parsed.files.filter((f) => f.candidates.length > 0)
    if (values.port !== undefined) {
      const token = yield* envOr(undefined, "KIOKU_AUTH_TOKEN", "")
      for (const [i, f] of files.entries()) {
        const res = yield* Effect.tryPromise({
          try: () =>
            fetch(`http://127.0.0.1:${values.port}/internal/memory/import_external_markdown`, {
              method: "POST",
              headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
              body: JSON.stringify(body(f.candidates, f.path, i === 0 ? parsed.warnings : 0))
            }).then(async (r) => ({ status: r.status, text: await r.text() })),
          catch: (e) => new UsageError({ message: `server did not answer: ${String(e)}` })
        })
        yield* out(`${res.status === 200 ? "imported" : `failed (${res.status})`} ${f.path}: ${res.text}`)
        if (res.status !== 200) return yield* new UsageError({ message: `server answered ${res.status}` })
      }
      return
    }
    const settings = yield* loadSettings({ dataDir: yield* dataDirOf(values["data-dir"]), configFile: values.config })
    yield* Effect.scoped(
      Effect.gen(function* () {
        yield* Startup.recover
        const memory = yield* MemoryService
        for (const f of files) {
          const o = yield* memory.importMarkdown(character, {
            source_format: parsed.format,
            imported_files: [f.path],
            candidates: f.candidates
          })
          yield* out(summary(f.path, f.candidates.length, o))
          if (o.status !== "success") return yield* new UsageError({ message: `import stopped at ${f.path}` })
        }
      })
    ).pipe(Effect.provide(appLayer({ settings })), Effect.provide(Logger.minimumLogLevel(LogLevel.Warning)))
  })
