/**
 * The Subjects tab: the memory grouped by subject — first the private memory (its counts; it is edited in
 * the other tabs), then one group per group chat, participant and group member with its display name (else
 * its id), kind and scope, and its facts, archived facts, reflections and persona entries, read-only. Each
 * subject's "Forget this subject" asks in a modal `<dialog>` (Escape or "Keep its memory" cancels) before
 * actions.ts forgets it and the view reloads.
 */
import type { SubjectView } from "../../src/browser/Wire.js"
import { append, button, byId, el, scoreText } from "../lib/dom.js"
import { forgetSubject } from "./actions.js"
import type { Ctx, View } from "./context.js"

type Lists = Pick<SubjectView, "facts" | "archived_facts" | "reflections" | "persona">

const kindLabel: Readonly<Record<SubjectView["subject_kind"], string>> = {
  group_chat: "group chat",
  participant: "participant",
  group_participant: "group member"
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

const counts = (m: Lists) => {
  const entries = m.persona.reduce((n, s) => n + s.entries.length, 0)
  return [
    plural(m.facts.length, "fact"),
    plural(m.archived_facts.length, "archived fact"),
    plural(m.reflections.length, "reflection"),
    plural(entries, "persona entry", "persona entries")
  ].join(" · ")
}

/** The subject's name as the page shows it: its display name, else its id. */
const subjectLabel = (s: SubjectView) => s.display_name ?? s.subject_id

const item = (id: string, text: string, meta: string, badge?: string) => {
  const li = el("li", undefined, "card")
  li.dataset["id"] = id
  const line = el("p", undefined, "muted")
  if (badge !== undefined) line.appendChild(el("span", badge, `badge status-${badge}`))
  line.appendChild(document.createTextNode(` ${meta}`))
  append(li, el("p", text, "text"), line)
  return li
}

const part = (title: string, items: ReadonlyArray<HTMLLIElement>) => {
  if (items.length === 0) return []
  const list = el("ul", undefined, "cards")
  list.setAttribute("aria-label", title)
  append(list, ...items)
  return [el("h4", title), list]
}

const subjectLists = (s: SubjectView): ReadonlyArray<HTMLElement> => [
  ...part(
    "Facts",
    s.facts.map((f) => item(f.id, f.text, `${f.id} · importance ${f.importance} · ${f.created_at}`))
  ),
  ...part(
    "Archived facts",
    s.archived_facts.map((f) => item(f.id, f.text, `${f.id} · importance ${f.importance}`, "archived"))
  ),
  ...part(
    "Reflections",
    s.reflections.map((r) => item(r.id, r.text, `${r.id} · score now ${scoreText(r.score.now)}`, r.status))
  ),
  ...part(
    "Persona",
    s.persona.flatMap((p) =>
      p.entries.map((e) => item(e.id, e.text, `${e.id} · ${p.section} · ${e.source} · score ${scoreText(e.score)}`))
    )
  )
]

const dialog = () => byId("forget", HTMLDialogElement)

/** Asks whether to forget `what`; resolves true to forget. */
const confirmForget = (what: string): Promise<boolean> => {
  const d = dialog()
  byId("forget-text", HTMLElement).textContent = what
  return new Promise((resolve) => {
    d.addEventListener("close", () => resolve(d.returnValue === "forget"), { once: true })
    d.returnValue = ""
    d.showModal()
    byId("forget-keep", HTMLButtonElement).focus()
  })
}

export const initSubjects = () => {
  byId("forget-keep", HTMLButtonElement).addEventListener("click", () => dialog().close("keep"))
  byId("forget-confirm", HTMLButtonElement).addEventListener("click", () => dialog().close("forget"))
}

const group = (title: string, kind: string, detail: string, lists: Lists) => {
  const section = el("section", undefined, "subject")
  const meta = el("p", undefined, "muted")
  append(meta, el("span", kind, "badge"), document.createTextNode(` ${detail}`))
  append(section, el("h3", title), meta, el("p", counts(lists), "muted"))
  return section
}

const subjectGroup = (ctx: Ctx, s: SubjectView) => {
  const label = subjectLabel(s)
  const kind = kindLabel[s.subject_kind]
  const id = s.display_name === null ? "" : `${s.subject_id} · `
  const section = group(label, kind, `${id}scope ${s.scope}`, s)
  section.dataset["subject"] = `${s.subject_kind}:${s.subject_id}`
  section.setAttribute("aria-label", `${kindLabel[s.subject_kind]} ${label}`)
  const row = el("div", undefined, "row")
  const ask =
    `Everything ${ctx.name()} remembers of ${label} (${kind} ${s.subject_id}) — ${counts(s)} — will be removed ` +
    `from every file, journal included. This cannot be undone.`
  row.appendChild(
    button(
      "Forget this subject",
      () =>
        void confirmForget(ask).then((yes) => {
          if (yes) void forgetSubject(ctx, s, `${kind} ${label}`)
        }),
      "danger"
    )
  )
  append(section, ...subjectLists(s), row)
  return section
}

export const renderSubjects = (ctx: Ctx, view: View) => {
  const own = group("Private", "private", "unshared memory; edit it in the Facts, Reflections and Persona tabs", view)
  own.dataset["subject"] = "private"
  own.setAttribute("aria-label", "Private")
  const rest =
    view.subjects.length === 0
      ? [el("p", "No group-chat memory yet.", "muted")]
      : view.subjects.map((s) => subjectGroup(ctx, s))
  byId("subject-list", HTMLElement).replaceChildren(own, ...rest)
}
