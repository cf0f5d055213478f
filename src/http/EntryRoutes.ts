/**
 * Operator actions on memory entries, for the memory browser and `kioku mcp`: POST `/api/memory/entry_action`
 * with `{lanlan_name, kind: "reflection"|"persona"|"fact", id, action: "confirm"|"deny"|"archive"|"forget"}`
 * (a fact, active or archived, can only be forgotten; `forget` of a fact or a persona entry removes its text from
 * every file of the character, see docs/operations.md "Forgetting"; forgetting it again answers the same; a
 * character-card persona entry answers 409 `protected`). Answers in the
 * `/api/memory` style: `{success: true, status}`; 400 for a malformed body or name; 404 for an unknown id;
 * 409 when the entry's lifecycle does not allow the action (with its current status); a storage failure is
 * HTTP 200 with `success: false`, as N.E.K.O. answers failed memory operations. Nothing is written
 * on any rejection.
 */
import { Effect, Either, Schema } from "effect"
import { MemoryService, type MemoryError } from "../MemoryService.js"
import { json, wire } from "./Responses.js"
import { EntryActed } from "../browser/Wire.js"
import { bodyText } from "./Routes.js"
import { api } from "../api/Api.js"

const decodeBody = Schema.decodeUnknownEither(Schema.parseJson(api.entryAction.body))

/** A failed memory operation in the `/api/memory` style: 400 for a bad name, else HTTP 200 `success: false`. */
export const memoryFailure = (e: MemoryError) =>
  e._tag === "InvalidCharacterName"
    ? json({ success: false, error: e.message }, 400)
    : json({ success: false, error: e._tag })

export const entryHandlers = {
  entryAction: Effect.gen(function* () {
    const body = decodeBody(yield* bodyText.pipe(Effect.orElseSucceed(() => "")))
    if (Either.isLeft(body)) return json({ success: false, error: "expected {lanlan_name, kind, id, action}" }, 400)
    const { lanlan_name, ...input } = body.right
    const result = yield* Effect.either((yield* MemoryService).manualAction(lanlan_name, input))
    if (Either.isLeft(result)) return memoryFailure(result.left)
    const r = result.right
    if (r._tag === "NotFound") return json({ success: false, error: "not_found" }, 404)
    if (r._tag === "NotAllowed") return json({ success: false, error: "not_allowed", status: r.status }, 409)
    return wire(EntryActed, { success: true, status: r.status })
  })
}
