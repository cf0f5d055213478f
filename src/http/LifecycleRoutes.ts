/**
 * `POST /release_character/{name}` and `POST /reload` (neko-compat §1.2), with N.E.K.O.'s bodies: release needs
 * `derived_task_claim_token` and `derived_task_claim_generation` (400 without them, 422 for a generation that
 * is not an integer), answers 409 `cancelled` for a claim already withdrawn and 500 `error` when the actor did
 * not close; reload reads its optional JSON body leniently (entries of the wrong type are ignored, as N.E.K.O.
 * does) and answers `{"status":"success"|"error","message"}`.
 */
import { HttpRouter, HttpServerRequest } from "@effect/platform"
import { Effect, Either, Option, Schema } from "effect"
import { CharacterRelease } from "../character/lifecycle/Release.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { bodyText } from "./Body.js"
import { json, validation } from "./Responses.js"
import { api } from "../api/Api.js"

const ReleaseQuery = api.releaseCharacter.query

const TRUE = new Set(["true", "1", "yes", "on", "t", "y"])
const FALSE = new Set(["false", "0", "no", "off", "f", "n"])

const decodeObject = Schema.decodeUnknownOption(
  Schema.parseJson(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
)
const asRecord = Schema.decodeUnknownOption(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
const asArray = Schema.decodeUnknownOption(Schema.Array(Schema.Unknown))
const strings = (v: unknown): ReadonlyArray<string> =>
  Option.getOrElse(asArray(v), (): ReadonlyArray<unknown> => []).filter(
    (x): x is string => typeof x === "string" && x !== ""
  )

export const lifecycleHandlers = {
  releaseCharacter: Effect.gen(function* () {
    const raw = (yield* HttpRouter.params)["name"] ?? ""
    const valid = validateCharacterName(raw)
    if (Either.isLeft(valid)) return json({ status: "error", character_name: raw, message: valid.left.detail }, 400)
    const name = valid.right
    const q: typeof ReleaseQuery.Type = yield* HttpServerRequest.schemaSearchParams(ReleaseQuery).pipe(
      Effect.orElseSucceed(() => ({}))
    )
    const token = q.derived_task_claim_token
    const generationText = q.derived_task_claim_generation
    if (!token || generationText === undefined)
      return json(
        { status: "error", character_name: name, message: "derived task claim token and generation are required" },
        400
      )
    const generation = Number(generationText.trim())
    if (generationText.trim() === "" || !Number.isSafeInteger(generation))
      return validation(["query", "derived_task_claim_generation"], "Input should be a valid integer", "int_parsing")
    const holdText = (q.hold_derived_task_admission ?? "false").toLowerCase()
    if (!TRUE.has(holdText) && !FALSE.has(holdText))
      return validation(["query", "hold_derived_task_admission"], "Input should be a valid boolean", "bool_parsing")
    const release = yield* CharacterRelease
    return yield* release.release(name, { token, generation, hold: TRUE.has(holdText) }).pipe(
      Effect.map((outcome) =>
        outcome._tag === "Withdrawn"
          ? json({ status: "cancelled", character_name: name, message: "release claim was already withdrawn" }, 409)
          : json({
              status: "success",
              character_name: name,
              cancelled_derived_tasks: outcome.cancelled,
              derived_task_claim_token: token
            })
      ),
      Effect.catchAll(() =>
        Effect.succeed(
          json({ status: "error", character_name: name, message: "the character's actor did not close" }, 500)
        )
      )
    )
  }),
  reload: Effect.gen(function* () {
    const text = yield* bodyText.pipe(Effect.orElseSucceed(() => ""))
    const body = Option.getOrElse(decodeObject(text), () => ({}) as Readonly<Record<string, unknown>>)
    const generations = Option.getOrElse(asRecord(body["resume_derived_task_generations"]), () => ({}))
    const claims = Option.getOrElse(asRecord(body["release_derived_task_claims"]), () => ({}))
    const release = yield* CharacterRelease
    return yield* release
      .reload({
        resumeNames: strings(body["resume_derived_task_names"]),
        resumeGenerations: Object.fromEntries(
          Object.entries(generations).filter(
            (e): e is [string, number] => e[0] !== "" && Number.isSafeInteger(e[1]) && (e[1] as number) >= 0
          )
        ),
        releaseClaims: Object.fromEntries(
          Object.entries(claims)
            .filter(([k, v]) => k !== "" && Option.isSome(asArray(v)))
            .map(([k, v]) => [k, strings(v)])
        )
      })
      .pipe(
        Effect.map((count) => json({ status: "success", message: `reloaded; ${count} characters read again` })),
        Effect.catchAll((e) => Effect.succeed(json({ status: "error", message: `${e.name} is busy` })))
      )
  })
}
