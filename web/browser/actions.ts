/**
 * The page's writes: an inline text edit (facts and persona entries), an operator action (confirm / deny /
 * archive) and forgetting a group-chat subject (`scoped_forget`); all go through the character's actor on
 * the server and end in a reload.
 */
import type { SubjectView } from "../../src/browser/Wire.js"
import { client } from "../lib/api.js"
import type { Ctx } from "./context.js"

export const editEntry = async (ctx: Ctx, kind: "fact" | "persona", id: string, text: string) => {
  const reply = await client.entryEdit({ body: { lanlan_name: ctx.name(), kind, id, text } })
  if (reply.ok) return ctx.reload(`Saved ${id}.`)
  ctx.say(reply.status === 409 ? `${id} is read-only.` : `Could not save ${id}: ${reply.error.message}`)
}

export const actOn = async (
  ctx: Ctx,
  kind: "reflection" | "persona",
  id: string,
  action: "confirm" | "deny" | "archive"
): Promise<boolean> => {
  const body = { lanlan_name: ctx.name(), kind, id, action }
  const reply = await client.entryAction({ body })
  if (reply.ok) {
    await ctx.reload(`${id} is now ${reply.value.status}.`)
    return true
  }
  ctx.say(
    reply.status === 409
      ? `${id} cannot ${action} (status ${reply.error.fields.status ?? "?"}).`
      : `Could not ${action} ${id}: ${reply.error.message}`
  )
  return false
}

/** Forgets every memory of subject `s` (its exact kind, id and scope); `label` names it in the status line. */
export const forgetSubject = async (ctx: Ctx, s: SubjectView, label: string) => {
  const subject = { subject_kind: s.subject_kind, subject_id: s.subject_id, scope: s.scope }
  const reply = await client.scopedForget({ name: ctx.name(), body: { subject } })
  if (reply.ok) return ctx.reload(`Forgot ${label}.`)
  ctx.say(`Could not forget ${label}: ${reply.error.message}`)
}
