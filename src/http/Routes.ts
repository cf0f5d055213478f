/**
 * The memory server's routes, a thin adapter over `MemoryService`: decode and validate the request with
 * Schema, run one operation, shape the answer the way N.E.K.O.'s clients expect. Rejected requests never
 * reach the service, so they write nothing.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Either, Exit, FiberId, Option, Ref, Runtime, Schema } from "effect"
import type { IncomingMessage, ServerResponse } from "node:http"
import { localIso } from "../domain/LocalTime.js"
import { parseWhen } from "../character/Funnel.js"
import type { WriteKind } from "../character/Commands.js"
import { MemoryService, type MemoryError, type WriteInput } from "../MemoryService.js"
import { RuntimeStatus, type Phase } from "../RuntimeStatus.js"
import * as RunOnce from "../maintenance/RunOnce.js"
import * as Startup from "../Startup.js"
import {
  BodyRejected,
  bodyRefusal,
  bodyText,
  isJsonContentType,
  MAX_NESTING,
  modelBodyText,
  nestsTooDeep,
  readIncoming
} from "./Body.js"
import { headerRefusal, limitedAnswer, type GuardOptions } from "./Guard.js"
import { detail, json, operationFailed, orInternalError, validation } from "./Responses.js"
import { VERSION, INSTANCE_ID } from "../Version.js"
import { api } from "../api/Api.js"

export { bodyText, modelBodyText } from "./Body.js"

const decodeHistoryRequest = Schema.decodeUnknownEither(Schema.parseJson(api.cache.body))
const decodeMessages = Schema.decodeUnknownEither(Schema.parseJson(Schema.Array(Schema.Unknown)))
const decodeReason = Schema.decodeUnknownOption(Schema.parseJson(api.startupBlock.body))
const decodeSurfaced = Schema.decodeUnknownOption(Schema.parseJson(api.recordSurfaced.body))
const decodeRunOnce = Schema.decodeUnknownOption(Schema.parseJson(api.maintenanceRunOnce.body))

/** A write route's body as `memory.write` takes it, or the answer refusing it (422). */
export const parseHistory = (text: string): Either.Either<WriteInput, HttpServerResponse.HttpServerResponse> => {
  const body = decodeHistoryRequest(text)
  if (body._tag === "Left")
    return Either.left(validation(["body"], "body must be a JSON object with a string input_history", "value_error"))
  const messages = decodeMessages(body.right.input_history)
  if (messages._tag === "Left")
    return Either.left(
      validation(
        ["body", "input_history"],
        "input_history must be a JSON array encoded as a string",
        "value_error.json"
      )
    )
  if (nestsTooDeep(messages.right))
    return Either.left(
      validation(["body", "input_history"], `input_history nests deeper than ${MAX_NESTING} levels`, "value_error")
    )
  return Either.right({ messages: messages.right, language: body.right.language })
}

const historyBody = Effect.flatMap(modelBodyText, (text) =>
  Either.match(parseHistory(text), {
    onLeft: (refused) => Effect.fail(new BodyRejected(refused)),
    onRight: (input) => Effect.succeed(input)
  })
)

export const nameParam = Effect.map(HttpRouter.params, (p) => p["name"] ?? "")

export const failure = (e: MemoryError) =>
  e._tag === "InvalidCharacterName"
    ? detail(400, e.detail)
    : operationFailed(e._tag === "StoreError" ? `${e.op} failed` : e.message)

const written: Readonly<Record<WriteKind, (count: number) => unknown>> = {
  cache: (count) => ({ status: "cached", count }),
  process: () => ({ status: "processed" }),
  renew: () => ({ status: "processed" }),
  settle: () => ({ status: "settled" })
}

/** Runs one write and answers it as the route does (failures are answered, never raised). */
export const writeAnswer = (kind: WriteKind, name: string, input: WriteInput) =>
  Effect.flatMap(MemoryService, (memory) =>
    memory.write(kind, name, input).pipe(
      Effect.map((count) => json(written[kind](count))),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  )

const writeRoute = (kind: WriteKind) =>
  Effect.gen(function* () {
    const name = yield* nameParam
    return yield* writeAnswer(kind, name, yield* historyBody)
  }).pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response)))

const directPath = /^\/(cache|process|renew|settle)\/([^/?;#]+)(?:\?.*)?$/
const isWriteKind = (route: string): route is WriteKind => Object.hasOwn(written, route)

/** A path segment as the router decodes a parameter (at most 100 characters); undefined where it would not. */
const routerParam = (segment: string): string | undefined => {
  try {
    const name = segment.includes("%") ? decodeURIComponent(segment) : segment
    return name.length <= 100 ? name : undefined
  } catch {
    return undefined
  }
}

const sendAnswer = (response: ServerResponse, answer: HttpServerResponse.HttpServerResponse) => {
  if (response.writableEnded) return
  response.writeHead(answer.status, answer.headers)
  // Every answer here is JSON, a byte body.
  response.end(answer.body._tag === "Uint8Array" ? answer.body.body : undefined)
}

/**
 * The write routes answered from Node's request event, without the router's per-request fiber, scope and
 * context (about a fifth of a `/cache` turn's CPU): only for requests the guard passes on their headers
 * alone, with a Content-Length within the limit and a JSON content type. Then the same steps follow — limited
 * mode, the body, `parseHistory`, `writeAnswer` — with the same answers. Anything else (a session, a refusal,
 * a chunked body, a path the router would decode otherwise) answers false and goes through the router.
 */
export const directWrites =
  (runtime: Runtime.Runtime<MemoryService | RuntimeStatus>, options: GuardOptions) =>
  (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== "POST") return false
    const match = directPath.exec(request.url ?? "")
    const kind = match?.[1] ?? ""
    const name = routerParam(match?.[2] ?? "")
    if (!isWriteKind(kind) || name === undefined) return false
    const header = (key: string) => {
      const value = request.headers[key]
      return typeof value === "string" ? value : undefined
    }
    if (headerRefusal(header, options.authToken) !== undefined) return false
    if (!(Number(header("content-length")) <= options.maxBodyBytes)) return false
    if (!isJsonContentType(header("content-type"))) return false
    const answer = Effect.gen(function* () {
      const refused = yield* limitedAnswer
      if (Option.isSome(refused)) return refused.value
      const text = yield* readIncoming(request, options.maxBodyBytes)
      if (Either.isLeft(text)) return bodyRefusal(text.left)
      const input = parseHistory(text.right)
      return Either.isLeft(input) ? input.left : yield* writeAnswer(kind, name, input.right)
    })
    const fiber = Runtime.runFork(runtime)(orInternalError(answer))
    response.on("close", () => {
      if (!response.writableEnded) fiber.unsafeInterruptAsFork(FiberId.none)
    })
    fiber.addObserver((exit) => {
      if (Exit.isSuccess(exit)) sendAnswer(response, exit.value)
    })
    return true
  }

export const queryLanguage = Effect.map(HttpServerRequest.schemaSearchParams(api.newDialog.query), (q) => ({
  language: q.language,
  renderLanguage: q.render_language
})).pipe(Effect.orElseSucceed(() => ({})))

export const coreHandlers = {
  health: Effect.succeed(
    json({ app: "N.E.K.O", service: "memory", status: "ok", instance_id: INSTANCE_ID, kioku_version: VERSION })
  ),
  cache: writeRoute("cache"),
  process: writeRoute("process"),
  renew: writeRoute("renew"),
  settle: writeRoute("settle"),
  newDialog: Effect.gen(function* () {
    const memory = yield* MemoryService
    const result = yield* Effect.either(memory.newDialog(yield* nameParam, yield* queryLanguage))
    if (result._tag === "Left") {
      if (result.left._tag === "InvalidCharacterName") return failure(result.left)
      yield* Effect.logError("new_dialog failed; answering an empty dialog").pipe(
        Effect.annotateLogs({ error: result.left._tag })
      )
    }
    const text = result._tag === "Right" ? result.right : ""
    return HttpServerResponse.text(text, { contentType: "text/plain; charset=utf-8" })
  }),
  getRecentHistory: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.recentHistory(yield* nameParam, yield* queryLanguage).pipe(
      Effect.map((body) => json(body)),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  lastConversationGap: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.lastConversationGap(yield* nameParam).pipe(
      Effect.map((gap) => json({ gap_seconds: gap })),
      Effect.catchAll((e) =>
        Effect.succeed(
          e._tag === "InvalidCharacterName" ? failure(e) : json({ gap_seconds: -1, error: "server_error" }, 500)
        )
      )
    )
  }),
  cancelCorrection: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.cancelCorrection(yield* nameParam).pipe(
      Effect.map((status) => json({ status })),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  getSettings: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.settings(yield* nameParam, yield* queryLanguage).pipe(
      Effect.map((text) => json(text)),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  getPersona: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.persona(yield* nameParam).pipe(
      Effect.map((persona) => json(persona)),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  followupTopics: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.followupTopics(yield* nameParam).pipe(
      Effect.map((topics) => json({ topics })),
      Effect.catchAll((e) => Effect.succeed(e._tag === "InvalidCharacterName" ? failure(e) : json({ topics: [] })))
    )
  }),
  recordSurfaced: Effect.gen(function* () {
    const memory = yield* MemoryService
    const name = yield* nameParam
    const body = decodeSurfaced(yield* bodyText.pipe(Effect.orElseSucceed(() => "")))
    if (Option.isNone(body))
      return validation(["body", "reflection_ids"], "reflection_ids must be a list of strings", "value_error")
    return yield* memory.recordSurfaced(name, body.value.reflection_ids).pipe(
      Effect.map(() => json({ ok: true })),
      Effect.catchAll((e) => Effect.succeed(e._tag === "InvalidCharacterName" ? failure(e) : json({ ok: true })))
    )
  }),
  funnel: Effect.gen(function* () {
    const memory = yield* MemoryService
    const name = yield* nameParam
    const query = yield* HttpServerRequest.schemaSearchParams(api.funnel.query).pipe(
      Effect.orElseSucceed(() => ({ since: undefined, until: undefined }))
    )
    const now = yield* Clock.currentTimeMillis
    const until = query.until === undefined ? now : parseWhen(query.until)
    const since = query.since === undefined ? (until ?? now) - 7 * 86_400_000 : parseWhen(query.since)
    if (since === undefined || until === undefined) return detail(400, "Invalid datetime")
    if (since > until) return detail(400, "since must not be after until")
    return yield* memory.funnel(name, since, until).pipe(
      Effect.map((counts) =>
        json({ lanlan_name: name.trim(), since: localIso(since), until: localIso(until), counts })
      ),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  reflect: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.reflect(yield* nameParam).pipe(
      Effect.map((r) => json({ reflection: Option.getOrNull(r), auto_transitions: 0 })),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }),
  maintenanceRunOnce: Effect.gen(function* () {
    const text = yield* bodyText
    const body = text.trim() === "" ? Option.some({ character: undefined }) : decodeRunOnce(text)
    if (Option.isNone(body)) return validation(["body"], "body must be a JSON object", "value_error")
    return yield* RunOnce.runOnce(body.value.character ?? undefined).pipe(
      Effect.map((report) => json(report)),
      Effect.catchAll((e) => Effect.succeed(failure(e)))
    )
  }).pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response))),
  shutdown: Effect.succeed(json({ status: "shutdown_disabled", message: "stop kioku with a signal" })),
  startupContinue: Effect.gen(function* () {
    const status = yield* RuntimeStatus
    const phase = yield* Ref.get(status)
    if (phase._tag === "blocked") yield* Startup.recover
    else if (phase._tag === "reblocked") yield* Ref.set(status, { _tag: "ready" })
    return json({ ok: true, initialized: (yield* Ref.get(status))._tag === "ready" })
  }),
  startupBlock: Effect.gen(function* () {
    const text = yield* bodyText.pipe(Effect.orElseSucceed(() => ""))
    const reason = Option.flatMap(decodeReason(text), (b) => Option.fromNullable(b.reason)).pipe(
      Option.getOrElse(() => "blocked_by_request")
    )
    const status = yield* RuntimeStatus
    yield* Ref.update(status, (p): Phase => (p._tag === "ready" ? { _tag: "reblocked", reason } : p))
    return json({ ok: true, limited_mode: true, reason })
  })
}
