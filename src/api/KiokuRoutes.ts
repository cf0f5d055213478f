/**
 * The route table's entries for kioku's own routes: N.E.K.O.'s main-server `/api/memory` routes the memory
 * browser uses (neko-compat §1.8, §1.10), the browser and state-chart reads, operations (maintenance, limited
 * mode) and the pages (HTML and their scripts, the OpenAPI document and its docs page).
 */
import * as Wire from "../browser/Wire.js"
import { route } from "./Route.js"
import * as S from "./Schemas.js"

const toggle = <P extends string>(path: P, what: string) =>
  [
    route({ method: "GET", path, tag: "memory-api", summary: `whether ${what} is on`, json: Wire.Toggle }),
    route({
      method: "POST",
      path,
      tag: "memory-api",
      summary: `switch ${what}`,
      body: Wire.Toggle,
      json: Wire.ToggleSaved,
      errors: { "400": "enabled is not a boolean" }
    })
  ] as const

const [getPowerfulMemoryConfig, setPowerfulMemoryConfig] = toggle(
  "/api/memory/powerful_memory_config",
  "powerful memory"
)
const [getReviewConfig, setReviewConfig] = toggle("/api/memory/review_config", "the auto review of recent history")
const page = <P extends string>(path: P, summary: string) =>
  route({ method: "GET", path, tag: "pages", summary, text: "text/html" })
const badName = { "400": "an invalid character name" } as const

export const kiokuRoutes = {
  getPowerfulMemoryConfig,
  setPowerfulMemoryConfig,
  getReviewConfig,
  setReviewConfig,
  recentFiles: route({
    method: "GET",
    path: "/api/memory/recent_files",
    tag: "memory-api",
    summary: "the recent_<name>.json files, sorted",
    json: S.RecentFiles
  }),
  recentFile: route({
    method: "GET",
    path: "/api/memory/recent_file",
    tag: "memory-api",
    summary: "one recent file's raw text with its fingerprint and identity token",
    query: S.RecentFileQuery,
    json: Wire.RecentFile,
    errors: { "400": "a bad file name", "404": "no such file" }
  }),
  saveRecentFile: route({
    method: "POST",
    path: "/api/memory/recent_file/save",
    tag: "memory-api",
    summary: "replace the recent history if nobody changed it since it was read",
    body: S.RecentSaveRequest,
    json: Wire.RecentSaved,
    errors: { "400": "a malformed body", "409": "RECENT_FILE_CONFLICT: stale or missing tokens" }
  }),
  updateCatgirlName: route({
    method: "POST",
    path: "/api/memory/update_catgirl_name",
    tag: "memory-api",
    summary: "rename a character's memory",
    body: S.RenameRequest,
    json: S.Renamed,
    errors: { "400": "invalid names", "404": "unknown character", "409": "both exist, or a write did not finish" }
  }),
  funnel: route({
    method: "GET",
    path: "/api/memory/funnel/{name}",
    tag: "memory-api",
    summary: "journal counts over a window (default the last 7 days)",
    query: S.FunnelQuery,
    json: Wire.Funnel,
    errors: { "400": "a bad name or window" }
  }),
  entryAction: route({
    method: "POST",
    path: "/api/memory/entry_action",
    tag: "memory-api",
    summary: "confirm, deny, archive or forget an entry",
    body: S.EntryActionRequest,
    json: Wire.EntryActed,
    errors: { "400": "a malformed body", "404": "unknown id", "409": "not_allowed, or protected" }
  }),
  entryEdit: route({
    method: "POST",
    path: "/api/memory/entry_edit",
    tag: "browser",
    summary: "edit a fact's or a persona entry's text",
    body: S.EntryEditRequest,
    json: Wire.EntryEdited,
    errors: { "400": "a malformed body", "404": "unknown id", "409": "read_only: a character-card entry" }
  }),
  browserView: route({
    method: "GET",
    path: "/api/memory/browser/{name}",
    tag: "browser",
    summary: "facts, archived facts, reflections and persona, as the memory browser shows them",
    json: Wire.BrowserView,
    errors: badName
  }),
  liveActors: route({
    method: "GET",
    path: "/api/memory/live_actors",
    tag: "browser",
    summary: "each live actor's session and supervision state",
    json: Wire.LiveActors
  }),
  statechartCharacters: route({
    method: "GET",
    path: "/api/memory/statecharts/characters",
    tag: "browser",
    summary: "the character directories",
    json: Wire.Characters
  }),
  statechartCounts: route({
    method: "GET",
    path: "/api/memory/statecharts/{name}",
    tag: "browser",
    summary: "entry counts per state of each machine",
    json: Wire.StateCounts,
    errors: badName
  }),
  statechartEntries: route({
    method: "GET",
    path: "/api/memory/statecharts/{name}/entries",
    tag: "browser",
    summary: "the entries in one state of one machine",
    query: S.EntriesQuery,
    json: Wire.StateEntries,
    errors: { ...badName, "422": "an unknown machine or state" }
  }),
  statechartHistory: route({
    method: "GET",
    path: "/api/memory/statecharts/{name}/history/{entryId}",
    tag: "browser",
    summary: "an entry's lifecycle steps from events.ndjson",
    json: Wire.History,
    errors: badName
  }),
  maintenanceRunOnce: route({
    method: "POST",
    path: "/internal/maintenance/run_once",
    tag: "operations",
    summary: "run every due maintenance job now, for one character or all",
    body: S.RunOnceRequest,
    bodyOptional: true,
    json: S.MaintenanceRan,
    errors: { "422": "the body is not a JSON object" }
  }),
  startupContinue: route({
    method: "POST",
    path: "/internal/storage/startup/continue",
    tag: "operations",
    summary: "leave limited mode",
    json: S.StartupContinued
  }),
  startupBlock: route({
    method: "POST",
    path: "/internal/storage/startup/block",
    tag: "operations",
    summary: "enter limited mode again",
    body: S.BlockRequest,
    bodyOptional: true,
    json: S.StartupBlocked
  }),
  home: page("/", "the landing page: status, characters, how to connect"),
  memoryBrowserPage: page("/memory_browser", "the memory browser"),
  statechartsPage: page("/statecharts", "the state charts"),
  docs: page("/docs", "this API, described from its OpenAPI document"),
  openapi: route({
    method: "GET",
    path: "/openapi.json",
    tag: "pages",
    summary: "the OpenAPI 3.1 document of every route",
    json: S.JsonObject
  }),
  asset: route({
    method: "GET",
    path: "/assets/{file}",
    tag: "pages",
    summary: "the pages' bundled scripts (memory-browser.js, statecharts.js)",
    text: "text/javascript",
    errors: { "404": "any other file" }
  })
}
