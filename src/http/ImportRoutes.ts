/**
 * `POST /internal/memory/import_external_markdown` (neko-compat §1.6): an OpenClaw / Hermes workspace's
 * already-parsed candidates for one character. 422 when the body is not the model, 400 for a bad name or
 * source format, 0 or more than 1000 candidates, or a candidate without text, with text over 8000 characters,
 * an unknown entity or target, or no source file. A supported `language` is recorded as the prompt locale
 * first, as N.E.K.O. does. Answers the success body, or 413 `external_import_too_large` / 500
 * `external_import_partial` with `partial_import` (what was added before the stop).
 */
import { Effect, Either, Option, Schema } from "effect"
import { validateCharacterName } from "../domain/CharacterName.js"
import { normaliseLanguage } from "../domain/Locale.js"
import { MAX_CANDIDATE_CHARS, MAX_CANDIDATES, type Candidate } from "../facts/ExternalImport.js"
import { MemoryService } from "../MemoryService.js"
import { modelBodyText } from "./Body.js"
import { detail, json, validation } from "./Responses.js"
import { failure } from "./Routes.js"
import { api } from "../api/Api.js"

/** The import model with its candidates left unread: each is checked on its own (a bad one is a 400). */
const Body = Schema.Struct({ ...api.importExternalMarkdown.body.fields, candidates: Schema.Array(Schema.Unknown) })
const decodeBody = Schema.decodeUnknownEither(Schema.parseJson(Body))
const decodeObject = Schema.decodeUnknownOption(Schema.Record({ key: Schema.String, value: Schema.Unknown }))

const str = (v: unknown): string => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "")
const entities = ["master", "neko", "relationship"] as const
const targets = ["persona", "facts"] as const

/** A candidate as the route accepts it, or the 400 detail that rejects it. */
const candidateOf = (raw: unknown): Either.Either<Candidate, string> => {
  const o = decodeObject(raw)
  if (Option.isNone(o)) return Either.left("Invalid candidate")
  const c = o.value
  const text = str(c["text"]).trim()
  const entity = entities.find((e) => e === (str(c["entity"]) || "master"))
  const target = targets.find((t) => t === c["target"])
  const sourceFile = str(c["source_file"])
  if (text === "" || text.length > MAX_CANDIDATE_CHARS || !entity || !target || sourceFile === "") {
    return Either.left("Invalid candidate fields")
  }
  const date = str(c["event_date"])
  return Either.right({
    text,
    entity,
    target,
    source_file: sourceFile,
    source_section: str(c["source_section"]),
    event_date: date === "" ? null : date
  })
}

export const importHandlers = {
  importExternalMarkdown: Effect.gen(function* () {
    const memory = yield* MemoryService
    const decoded = decodeBody(yield* modelBodyText)
    if (Either.isLeft(decoded)) return validation(["body"], "body does not match the import model", "model_type")
    const body = decoded.right
    const valid = validateCharacterName(body.character_name)
    if (Either.isLeft(valid)) return detail(400, valid.left.detail)
    const name = valid.right
    if (body.source_format !== "openclaw" && body.source_format !== "hermes") {
      return detail(400, "Invalid source_format")
    }
    if (body.candidates.length === 0 || body.candidates.length > MAX_CANDIDATES) {
      return detail(400, "Invalid candidate count")
    }
    const candidates: Array<Candidate> = []
    for (const raw of body.candidates) {
      const c = candidateOf(raw)
      if (Either.isLeft(c)) return detail(400, c.left)
      candidates.push(c.right)
    }
    const language = normaliseLanguage(body.language ?? undefined)
    if (language !== undefined) {
      const set = yield* Effect.either(memory.setPromptLocale(name, language))
      if (Either.isLeft(set)) return failure(set.left)
    }
    const result = yield* Effect.either(
      memory.importMarkdown(name, {
        source_format: body.source_format,
        imported_files: body.imported_files,
        candidates
      })
    )
    if (Either.isLeft(result)) return failure(result.left)
    const o = result.right
    if (o.status !== "success") {
      return json(
        {
          detail: o.detail,
          error_code: o.status === "too_large" ? "external_import_too_large" : "external_import_partial",
          partial_import: { character_name: name, added_persona: o.added_persona, added_facts: o.added_facts }
        },
        o.status === "too_large" ? 413 : 500
      )
    }
    return json({
      status: "success",
      character_name: name,
      source_format: body.source_format,
      imported_files: body.imported_files,
      added_persona: o.added_persona,
      added_facts: o.added_facts,
      skipped_duplicates: o.skipped_duplicates,
      warning_count: Math.max(0, body.warning_count)
    })
  }).pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response)))
}
