/**
 * The memory browser (product §3 item 7): `GET /memory_browser` (the page), `GET /api/memory/browser/{name}`
 * (private facts, reflections with their evidence decay, persona by section, and the same per group-chat
 * subject with its display name, read from the character's files) and
 * `POST /api/memory/entry_edit` `{lanlan_name, kind: "fact"|"persona", id, text}`, which goes through the
 * character's actor and is journaled: `{success: true, id, text}`; 400 for a malformed body or name; 404 for
 * an unknown id; 409 `read_only` for a protected (character-card) persona entry; a storage failure is HTTP
 * 200 with `success: false`, as N.E.K.O. answers failed memory operations.
 */
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Either, Schema } from "effect"
import { memoryBrowserPage } from "../browser/Page.js"
import { snapshot } from "../browser/Snapshot.js"
import { KiokuConfig } from "../Config.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { memoryFailure } from "./EntryRoutes.js"
import { MemoryService } from "../MemoryService.js"
import { characterDir } from "../statecharts/Live.js"
import { detail, json, operationFailed, wire } from "./Responses.js"
import * as Wire from "../browser/Wire.js"
import { bodyText } from "./Routes.js"
import { api } from "../api/Api.js"

const decodeEdit = Schema.decodeUnknownEither(Schema.parseJson(api.entryEdit.body))

const failed = (e: { readonly _tag: string; readonly message: string }) =>
  Effect.logWarning("memory browser read failed").pipe(
    Effect.annotateLogs({ error: e._tag }),
    Effect.as(operationFailed(e.message))
  )

export const browserHandlers = {
  memoryBrowserPage: Effect.sync(() => HttpServerResponse.html(memoryBrowserPage())),
  browserView: Effect.gen(function* () {
    const name = validateCharacterName((yield* HttpRouter.params)["name"] ?? "")
    if (Either.isLeft(name)) return detail(400, name.left.detail)
    const { dataDir, tunables } = yield* KiokuConfig
    const view = yield* snapshot(characterDir(dataDir, name.right), tunables, yield* Clock.currentTimeMillis)
    return wire(Wire.BrowserView, { name: name.right, ...view })
  }).pipe(Effect.catchTags({ StoreError: failed, ViewDecodeError: failed })),
  entryEdit: Effect.gen(function* () {
    const body = decodeEdit(yield* bodyText.pipe(Effect.orElseSucceed(() => "")))
    if (Either.isLeft(body)) return json({ success: false, error: "expected {lanlan_name, kind, id, text}" }, 400)
    const { lanlan_name, kind, id } = body.right
    const text = body.right.text.trim()
    if (text === "") return json({ success: false, error: "text must not be empty" }, 400)
    const result = yield* Effect.either((yield* MemoryService).editEntry(lanlan_name, { kind, id, text }))
    if (Either.isLeft(result)) return memoryFailure(result.left)
    const r = result.right
    if (r._tag === "NotFound") return json({ success: false, error: "not_found" }, 404)
    if (r._tag === "ReadOnly") return json({ success: false, error: "read_only" }, 409)
    return wire(Wire.EntryEdited, { success: true, id: r.id, text: r.text })
  })
}
