/**
 * `POST /query_memory/{name}` (neko-compat §1.4): the body is decoded with the `QueryRequest` schema (422
 * when it does not decode, or when `subjects` is given without 1 to 8 items ; valid given
 * subjects are widened to every account of the same participant through the identity graph, a malformed
 * one answers `hybrid_recall_failed`), then the character's actor recalls. The answer is the JSON result — a failed recall is still HTTP 200 with
 * `error_code: "hybrid_recall_failed"` — or, with `?format=markdown`, the `recall_memory` tool's text
 * (text/plain). An invalid name is a 400 like every character route.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, Either, Schema } from "effect"
import { makeSubject, subjectFields } from "../domain/Subject.js"
import { TrustService } from "../trust/TrustService.js"
import { MemoryService } from "../MemoryService.js"
import { detail, json, validation } from "./Responses.js"
import { modelBodyText } from "./Routes.js"
import { api } from "../api/Api.js"

const decodeQuery = Schema.decodeUnknownEither(Schema.parseJson(api.queryMemory.body))
const Format = api.queryMemory.query

export const recallHandlers = {
  queryMemory: Effect.gen(function* () {
    const memory = yield* MemoryService
    const name = (yield* HttpRouter.params)["name"] ?? ""
    const body = decodeQuery(yield* modelBodyText)
    if (body._tag === "Left")
      return validation(["body"], "body must be a JSON object (query, time, language, subjects)", "value_error")
    const given = body.right
    if (given.subjects !== undefined && (given.subjects.length < 1 || given.subjects.length > 8))
      return validation(["body", "subjects"], "subjects must hold 1 to 8 subjects", "value_error")
    const subjects =
      given.subjects === undefined
        ? undefined
        : Either.all(
            given.subjects.map((s) => makeSubject(s.subject_kind || s.kind, s.subject_id, s.scope ?? undefined))
          )
    const widened =
      subjects === undefined || Either.isLeft(subjects)
        ? undefined
        : (yield* (yield* TrustService).foldRequestSubjects(subjects.right)).subjects.map((s) => ({
            ...subjectFields(s)
          }))
    const input = widened === undefined ? given : { ...given, subjects: widened }
    const { format } = yield* HttpServerRequest.schemaSearchParams(Format).pipe(
      Effect.orElseSucceed(() => ({ format: undefined }))
    )
    const answer =
      format === "markdown"
        ? Effect.map(memory.recallText(name, input), (text) =>
            HttpServerResponse.text(text, { contentType: "text/plain; charset=utf-8" })
          )
        : Effect.map(memory.queryMemory(name, input), (result) => json(result))
    return yield* answer.pipe(Effect.catchAll((e) => Effect.succeed(detail(400, e.detail))))
  }).pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response)))
}
