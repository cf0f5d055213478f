/**
 * The two writes on entries: an inline text edit (facts and persona entries) and an operator action
 * (confirm / deny / archive); both go through the character's actor on the server and end in a reload.
 */
import { EntryActed, EntryEdited } from "../../src/browser/Wire.js"
import { request } from "../lib/api.js"
import type { Ctx } from "./context.js"

export const editEntry = async (ctx: Ctx, kind: "fact" | "persona", id: string, text: string) => {
  const reply = await request(EntryEdited, "/api/memory/entry_edit", { lanlan_name: ctx.name(), kind, id, text })
  if (reply._tag === "ok") return ctx.reload(`Saved ${id}.`)
  ctx.say(reply.status === 409 ? `${id} is read-only.` : `Could not save ${id}: ${reply.error}`)
}

export const actOn = async (
  ctx: Ctx,
  kind: "reflection" | "persona",
  id: string,
  action: "confirm" | "deny" | "archive"
): Promise<boolean> => {
  const body = { lanlan_name: ctx.name(), kind, id, action }
  const reply = await request(EntryActed, "/api/memory/entry_action", body)
  if (reply._tag === "ok") {
    await ctx.reload(`${id} is now ${reply.value.status}.`)
    return true
  }
  ctx.say(
    reply.status === 409
      ? `${id} cannot ${action} (status ${reply.fields.status ?? "?"}).`
      : `Could not ${action} ${id}: ${reply.error}`
  )
  return false
}
