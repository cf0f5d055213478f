/**
 * The speaker-trust and identity routes (neko-compat §1.7), character-agnostic: `GET /internal/trust/profile`,
 * `POST /internal/trust/{import_legacy_profiles,waive_legacy_barrier,reconcile_from_facts}` and
 * `POST /internal/identity/{scope,accounts/ensure,accounts/bind,accounts/unbind,entities/merge,entities/forget}`.
 * Bodies are N.E.K.O.'s request models (FastAPI's 422 when one does not decode); its own refusals answer
 * `{"detail": …}` with 422, 404 (unknown entity), 409 (an account already bound, the 8-accounts-per-platform
 * limit) or 500; identity changes answer 503 while the pool file cannot be read.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Either } from "effect"
import { api } from "../../api/Api.js"
import { validateCharacterName } from "../../domain/CharacterName.js"
import { isPlatformToken, LEGACY_IMPORT_CHUNK_MAX } from "../../trust/Identity.js"
import { TrustService } from "../../trust/TrustService.js"
import { modelBodyText } from "../Body.js"
import { decodeModel, missing, unprocessable } from "./ModelBody.js"
import { detail, json } from "../Responses.js"

const LegacyImport = decodeModel(api.importLegacyProfiles.body)
const Waive = decodeModel(api.waiveLegacyBarrier.body)
const Reconcile = decodeModel(api.reconcileFromFacts.body)
const ScopeDeclare = decodeModel(api.declareIdentityScope.body)
const Account = decodeModel(api.ensureAccount.body)
const Unbind = decodeModel(api.unbindAccount.body)
const Bind = decodeModel(api.bindAccount.body)
const Merge = decodeModel(api.mergeEntities.body)
const Entity = decodeModel(api.forgetEntity.body)
const ProfileQuery = api.trustProfile.query

const unreadablePool = detail(
  503,
  "identity pool unreadable; identity changes are refused while the trust pool is read-only, retry once it loads"
)

/** A route over one request model: 422 when it does not decode, else `handle`'s answer. */
const model = <A, R>(
  decode: (text: string) => Either.Either<A, ReadonlyArray<unknown>>,
  handle: (body: A) => Effect.Effect<ReturnType<typeof json>, never, R>
) =>
  Effect.gen(function* () {
    const body = decode(yield* modelBodyText)
    return Either.isLeft(body) ? json({ detail: body.left }, 422) : yield* handle(body.right)
  }).pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response)))

/** An identity change: refused (503) while the pool is closed; its typed refusal becomes `{"detail"}`. */
const identity = <A>(
  run: (trust: TrustService) => Effect.Effect<A, { readonly status: number; readonly message: string }>
) =>
  Effect.gen(function* () {
    const trust = yield* TrustService
    if (!(yield* trust.snapshot).loaded) return unreadablePool
    return yield* run(trust).pipe(
      Effect.map((answer) => json(answer)),
      Effect.catchAll((e) => Effect.succeed(detail(e.status, e.message)))
    )
  })

const checkedPlatform = (platform: string) => (isPlatformToken(platform) ? undefined : detail(422, "invalid platform"))

/** The handlers of the route table's trust and identity entries (api/GroupRoutes.ts), mounted by http/Server.ts. */
export const trustHandlers = {
  trustProfile: Effect.gen(function* () {
    const query = yield* HttpServerRequest.schemaSearchParams(ProfileQuery).pipe(
      Effect.orElseSucceed(() => ({ account_id: undefined }))
    )
    if (query.account_id === undefined) return unprocessable([missing(["query", "account_id"])])
    return json(yield* (yield* TrustService).profile(query.account_id))
  }),
  importLegacyProfiles: model(LegacyImport, (body) =>
    Effect.gen(function* () {
      const refused = checkedPlatform(body.platform)
      if (refused !== undefined) return refused
      if (body.source.trim() === "") return detail(422, "source is required")
      if (Object.keys(body.profiles).length > LEGACY_IMPORT_CHUNK_MAX)
        return detail(422, `profiles must contain at most ${LEGACY_IMPORT_CHUNK_MAX} items`)
      const trust = yield* TrustService
      return json(
        yield* trust.importLegacy({ platform: body.platform, source: body.source, final: body.final }, body.profiles)
      )
    })
  ),
  waiveLegacyBarrier: model(Waive, (body) =>
    Effect.gen(function* () {
      return checkedPlatform(body.platform) ?? json(yield* (yield* TrustService).waiveBarrier(body.platform))
    })
  ),
  reconcileFromFacts: model(Reconcile, (body) =>
    Effect.gen(function* () {
      const trust = yield* TrustService
      const given = body.character_names ?? []
      const names = given.length > 0 ? given : yield* trust.defaultCharacterNames
      const valid: Array<string> = []
      for (const name of names) {
        const checked = validateCharacterName(name)
        if (Either.isLeft(checked)) return detail(400, checked.left.detail)
        valid.push(checked.right)
      }
      return json(yield* trust.reconcile(valid))
    })
  ),
  declareIdentityScope: model(ScopeDeclare, (body) => identity((trust) => trust.declareScope(body))),
  ensureAccount: model(Account, (body) =>
    identity((trust) =>
      Effect.flatMap(trust.ensureAccount(body.account_id), ({ entityId, persisted }) =>
        entityId === undefined
          ? Effect.fail({ status: 422, message: "invalid account_id" })
          : Effect.succeed({ account_id: body.account_id, entity_id: entityId, persisted })
      )
    )
  ),
  bindAccount: model(Bind, (body) =>
    identity((trust) =>
      trust.bind({
        accountId: body.account_id,
        entityId: body.entity_id,
        boundBy: body.bound_by,
        requireUnbound: body.require_unbound
      })
    )
  ),
  unbindAccount: model(Unbind, (body) => identity((trust) => trust.unbind(body.account_id, body.require_provenance))),
  mergeEntities: model(Merge, (body) => identity((trust) => trust.merge(body.entity_id, body.other_entity_id))),
  forgetEntity: model(Entity, (body) => identity((trust) => trust.forget(body.entity_id)))
}
