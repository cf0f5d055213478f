/**
 * The route table's entries for N.E.K.O.'s memory-server contract (neko-compat §1): the write routes, the
 * context and recall reads, prompt locale, release and reload, the markdown import. Their wire quirks (HTTP 200
 * with `status:"error"` for a failed memory operation, FastAPI's 422 bodies, `text/plain` dialogs) are the
 * handlers'; the entries say what a request carries and what a success answers.
 */
import * as Schema from "effect/Schema"
import { QueryRequest, QueryResult } from "../recall/RecallTypes.js"
import { route } from "./Route.js"
import * as S from "./Schemas.js"

const badName = { "400": "an invalid character name" } as const
const write = <P extends string, A extends Schema.Schema.AnyNoContext>(path: P, summary: string, json: A) =>
  route({
    method: "POST",
    path,
    tag: "neko",
    summary,
    body: S.HistoryRequest,
    json,
    errors: { ...badName, "422": "the body is not a HistoryRequest" }
  })

export const nekoRoutes = {
  health: route({
    method: "GET",
    path: "/health",
    tag: "neko",
    summary: "the signature N.E.K.O.'s launcher checks",
    json: S.Health
  }),
  cache: write("/cache/{name}", "append turns, never compresses", S.Cached),
  process: write("/process/{name}", "append turns and compress", S.Processed),
  renew: write("/renew/{name}", "append turns, detailed compression", S.Processed),
  settle: write("/settle/{name}", "detailed compression of what is there", S.Settled),
  newDialog: route({
    method: "GET",
    path: "/new_dialog/{name}",
    tag: "neko",
    summary: "the rendered memory context; empty for an unknown character",
    query: S.LanguageQuery,
    text: "text/plain",
    errors: badName
  }),
  getRecentHistory: route({
    method: "GET",
    path: "/get_recent_history/{name}",
    tag: "neko",
    summary: "the recent history, rendered",
    query: S.LanguageQuery,
    json: Schema.String,
    errors: badName
  }),
  lastConversationGap: route({
    method: "GET",
    path: "/last_conversation_gap/{name}",
    tag: "neko",
    summary: "seconds since the last turn, -1 without history",
    json: S.Gap,
    errors: badName
  }),
  getPromptLocale: route({
    method: "GET",
    path: "/prompt-locale/{name}",
    tag: "neko",
    summary: "the durable prompt language and the one in effect",
    json: S.PromptLocale,
    errors: badName
  }),
  setPromptLocale: route({
    method: "PUT",
    path: "/prompt-locale/{name}",
    tag: "neko",
    summary: "set the prompt language",
    body: S.LocaleRequest,
    json: S.PromptLocaleSet,
    errors: { "400": "an invalid name or an unsupported language", "422": "no string language" }
  }),
  searchForMemory: route({
    method: "GET",
    path: "/search_for_memory/{name}/{query}",
    tag: "neko",
    summary: "deprecated: a placeholder text that points at /query_memory",
    query: Schema.Struct({ language: Schema.optional(Schema.String) }),
    json: Schema.String,
    errors: badName
  }),
  importExternalMarkdown: route({
    method: "POST",
    path: "/internal/memory/import_external_markdown",
    tag: "neko",
    summary: "import an OpenClaw or Hermes workspace's parsed candidates",
    body: S.ImportRequest,
    json: S.Imported,
    errors: {
      "400": "a bad name, source format, candidate count or candidate",
      "413": "external_import_too_large",
      "422": "the body is not the import model",
      "500": "external_import_partial"
    }
  }),
  cancelCorrection: route({
    method: "POST",
    path: "/cancel_correction/{name}",
    tag: "neko",
    summary: "cancel a running history review",
    json: S.CorrectionCancelled,
    errors: badName
  }),
  releaseCharacter: route({
    method: "POST",
    path: "/release_character/{name}",
    tag: "neko",
    summary: "take an admission claim and close the character's actor",
    query: S.ReleaseQuery,
    json: S.Released,
    errors: {
      "400": "no claim token or generation, or a bad name",
      "409": "the claim was already released",
      "422": "a generation that is not an integer",
      "500": "the actor did not close"
    }
  }),
  reload: route({
    method: "POST",
    path: "/reload",
    tag: "neko",
    summary: "release or resume claims and read every character again from disk",
    body: S.ReloadRequest,
    bodyOptional: true,
    json: S.Reloaded
  }),
  reflect: route({
    method: "POST",
    path: "/reflect/{name}",
    tag: "neko",
    summary: "one reflection synthesis now",
    json: S.Reflected,
    errors: badName
  }),
  queryMemory: route({
    method: "POST",
    path: "/query_memory/{name}",
    tag: "neko",
    summary: "recall by meaning and by time; ?format=markdown answers the recall_memory tool's text",
    query: S.FormatQuery,
    body: QueryRequest,
    json: QueryResult,
    text: "text/plain",
    errors: { ...badName, "422": "a malformed body, or subjects not 1 to 8 items" }
  }),
  getSettings: route({
    method: "GET",
    path: "/get_settings/{name}",
    tag: "neko",
    summary: "the rendered persona block (or the legacy settings text)",
    query: S.LanguageQuery,
    json: Schema.String,
    errors: badName
  }),
  getPersona: route({
    method: "GET",
    path: "/get_persona/{name}",
    tag: "neko",
    summary: "the whole persona.json object",
    json: S.JsonObject,
    errors: badName
  }),
  followupTopics: route({
    method: "GET",
    path: "/followup_topics/{name}",
    tag: "neko",
    summary: "eligible pending reflections (at most 3)",
    json: S.Topics,
    errors: badName
  }),
  recordSurfaced: route({
    method: "POST",
    path: "/record_surfaced/{name}",
    tag: "neko",
    summary: "mark reflections as surfaced (30-minute cooldown)",
    body: S.SurfacedRequest,
    json: S.Ok,
    errors: { ...badName, "422": "reflection_ids is not a list of strings" }
  }),
  resetConfirmedAt: route({
    method: "POST",
    path: "/internal/memory/reset_confirmed_at",
    tag: "neko",
    summary: "reset confirmed_at on every character",
    json: S.ConfirmedReset
  }),
  shutdown: route({
    method: "POST",
    path: "/shutdown",
    tag: "neko",
    summary: "refused: stop kioku with a signal",
    json: S.ShutdownRefused
  })
}
