/**
 * The route table's entries for N.E.K.O.'s group-chat contract (neko-compat §1.7): the scoped memory routes of
 * a character (`/internal/memory/{name}/scoped_*`) and the character-agnostic speaker-trust and identity routes
 * (`/internal/trust/*`, `/internal/identity/*`). Their refusals are N.E.K.O.'s: FastAPI's 422 for a body that is
 * not the model, `{"detail": …}` with its own texts for a contract breach (docs/routes.md).
 */
import { route } from "./Route.js"
import * as G from "./GroupSchemas.js"
import * as T from "./TrustSchemas.js"

const scoped = { "400": "an invalid character name", "422": "a body that is not the model, or a contract breach" }
const identity = { "503": "the trust pool cannot be read: identity changes are refused" }

const trust = <P extends string>(path: P, summary: string) => ({
  method: "POST" as const,
  path,
  tag: "neko" as const,
  summary
})

export const groupRoutes = {
  scopedFacts: route({
    method: "POST",
    path: "/internal/memory/{name}/scoped_facts",
    tag: "neko",
    summary: "store facts a group chat gave about one subject (exact repeats are not stored again)",
    body: G.ScopedFactsBody,
    json: G.ScopedFactsAnswer,
    errors: scoped
  }),
  scopedHistory: route({
    method: "POST",
    path: "/internal/memory/{name}/scoped_history",
    tag: "neko",
    summary: "extract a group digest (one subject, or 1 to 8 speaker segments) into facts, settling speaker trust",
    body: G.ScopedHistoryBody,
    json: G.ScopedHistoryAnswer,
    errors: { ...scoped, "502": "no segment could be extracted; keep the buffer and retry" }
  }),
  scopedContext: route({
    method: "POST",
    path: "/internal/memory/{name}/scoped_context",
    tag: "neko",
    summary: "the group-chat memory of 1 to 8 subjects, within the token budget (never private memory)",
    body: G.SubjectsBody,
    text: "text/plain",
    errors: scoped
  }),
  scopedMentions: route({
    method: "POST",
    path: "/internal/memory/{name}/scoped_mentions",
    tag: "neko",
    summary: "count what a reply mentioned of those subjects' entries (the anti-repeat counters)",
    body: G.MentionsBody,
    json: G.MentionsAnswer,
    errors: scoped
  }),
  scopedForget: route({
    method: "POST",
    path: "/internal/memory/{name}/scoped_forget",
    tag: "neko",
    summary: "forget a subject (and a participant's other accounts) from every file",
    body: G.ForgetBody,
    json: G.ScopedForgetAnswer,
    errors: {
      ...scoped,
      "500": "a step failed; retry is safe and idempotent",
      "503": "the trust pool cannot be read: the accounts to forget are unknown"
    }
  }),
  trustProfile: route({
    method: "GET",
    path: "/internal/trust/profile",
    tag: "neko",
    summary: "one account's speaker-trust diagnostics",
    query: T.ProfileQuery,
    json: T.TrustProfile,
    errors: { "422": "no account_id" }
  }),
  importLegacyProfiles: route({
    ...trust("/internal/trust/import_legacy_profiles", "import a chunk of a platform's legacy trust ledger"),
    body: T.LegacyImportBody,
    json: T.LegacyImportAnswer,
    errors: { "422": "a body that is not the model, an invalid platform, no source, more than 500 profiles" }
  }),
  waiveLegacyBarrier: route({
    ...trust("/internal/trust/waive_legacy_barrier", "open a platform's legacy-import barrier without an import"),
    body: T.WaiveBody,
    json: T.WaiveAnswer,
    errors: { "422": "a body that is not the model, or an invalid platform" }
  }),
  reconcileFromFacts: route({
    ...trust("/internal/trust/reconcile_from_facts", "fold the owner signals stored on fact rows into the pool"),
    body: T.ReconcileBody,
    json: T.ReconcileAnswer,
    errors: { "400": "an invalid character name", "422": "a body that is not the model" }
  }),
  declareIdentityScope: route({
    ...trust("/internal/identity/scope", "declare a platform's identity scope"),
    body: T.ScopeBody,
    json: T.ScopeAnswer,
    errors: { ...identity, "422": "a body that is not the model, or not a declaration" }
  }),
  ensureAccount: route({
    ...trust("/internal/identity/accounts/ensure", "register an account in its own entity if unseen"),
    body: T.AccountBody,
    json: T.EnsureAnswer,
    errors: { ...identity, "422": "a body that is not the model, or an invalid account_id" }
  }),
  bindAccount: route({
    ...trust("/internal/identity/accounts/bind", "bind an account to an entity (merging the two if it had one)"),
    body: T.BindBody,
    json: T.BindAnswer,
    errors: {
      ...identity,
      "404": "an unknown entity",
      "409": "already bound (require_unbound), or more than 8 accounts of a platform",
      "422": "a body that is not the model, an invalid account_id, no entity_id"
    }
  }),
  unbindAccount: route({
    ...trust("/internal/identity/accounts/unbind", "give an account a fresh entity of its own, with its ledger"),
    body: T.AccountBody,
    json: T.UnbindAnswer,
    errors: { ...identity, "422": "a body that is not the model, or an invalid account_id" }
  }),
  mergeEntities: route({
    ...trust("/internal/identity/entities/merge", "merge two entities (the older survives)"),
    body: T.MergeBody,
    json: T.MergeAnswer,
    errors: {
      ...identity,
      "404": "an unknown entity",
      "409": "more than 8 accounts of a platform",
      "422": "a body that is not the model, or an entity id missing"
    }
  }),
  forgetEntity: route({
    ...trust("/internal/identity/entities/forget", "forget an entity: its accounts leave the graph for good"),
    body: T.EntityBody,
    json: T.ForgetEntityAnswer,
    errors: { ...identity, "422": "a body that is not the model, or no entity_id" }
  })
}
