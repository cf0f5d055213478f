/**
 * The Facts, Reflections and Persona tabs drawn from one loaded view: facts filtered by the search box
 * with inline edit, and the archived facts (read-only) under the same filter; reflections with status, score decay (now, in 7 and 30 days), source facts, journal
 * history and confirm / deny / archive; persona entries by section, card entries read-only.
 */
import { type ArchivedFactView, type FactView, type ReflectionView } from "../../src/browser/Wire.js"
import { client } from "../lib/api.js"
import { append, button, byId, editor, el, historyTable, scoreText } from "../lib/dom.js"
import { actOn, editEntry } from "./actions.js"
import type { Ctx, View } from "./context.js"

/** Reflections whose history is shown; kept across reloads. */
export const openHistory = new Set<string>()

const card = (id: string, text: string) => {
  const li = el("li", undefined, "card")
  li.dataset["id"] = id
  li.appendChild(el("p", text, "text"))
  return li
}

const editable = (ctx: Ctx, li: HTMLLIElement, row: HTMLElement, kind: "fact" | "persona", id: string, text: string) =>
  button("Edit", () => {
    const label = kind === "fact" ? "Fact text" : "Persona entry text"
    li.replaceChild(
      editor(text, label, (t) => void editEntry(ctx, kind, id, t), ctx.rerender),
      row
    )
  })

const factCard = (ctx: Ctx, f: FactView) => {
  const li = card(f.id, f.text)
  const meta = `${f.id} · ${f.entity} · importance ${f.importance} · ${f.created_at}${f.absorbed ? " · absorbed" : ""}`
  const row = el("div", undefined, "row")
  append(li, el("p", meta, "muted"), row)
  row.appendChild(editable(ctx, li, row, "fact", f.id, f.text))
  return li
}

const archivedCard = (f: ArchivedFactView) => {
  const li = card(f.id, f.text)
  const meta = el("p", undefined, "muted")
  const when = f.archived_at === null ? "" : ` · archived ${f.archived_at}`
  append(
    meta,
    el("span", "archived", "badge status-archived"),
    document.createTextNode(` ${f.id} · ${f.entity} · importance ${f.importance} · ${f.created_at}${when}`)
  )
  li.appendChild(meta)
  return li
}

/** The inline editors open under `list`: entry id → the text typed so far. */
const openEdits = (list: HTMLElement): ReadonlyMap<string, string> =>
  new Map(
    [...list.querySelectorAll<HTMLLIElement>("li.card")].flatMap((li) => {
      const area = li.querySelector<HTMLTextAreaElement>(".editor textarea")
      const id = li.dataset["id"]
      return area === null || id === undefined ? [] : [[id, area.value] as const]
    })
  )

/** Opens the editor of each card in `list` that had one, with the text that was typed in it. */
const reopen = (list: HTMLElement, edits: ReadonlyMap<string, string>) => {
  for (const li of list.querySelectorAll<HTMLLIElement>("li.card")) {
    const typed = edits.get(li.dataset["id"] ?? "")
    const edit = [...li.querySelectorAll("button")].find((b) => b.textContent === "Edit")
    if (typed === undefined || edit === undefined) continue
    edit.click()
    const area = li.querySelector<HTMLTextAreaElement>(".editor textarea")
    if (area !== null) area.value = typed
  }
}

/**
 * Draws the Facts tab under the search box's filter. With `keepEditors` (a new search, not a reload) open
 * editors stay open with their text, and their facts stay listed even when the filter no longer matches.
 */
export const renderFacts = (ctx: Ctx, view: View, keepEditors = false) => {
  const list = byId("fact-list", HTMLUListElement)
  const edits = keepEditors ? openEdits(list) : new Map<string, string>()
  const query = byId("fact-search", HTMLInputElement).value.trim().toLowerCase()
  const matches = (f: { readonly text: string }) => query === "" || f.text.toLowerCase().includes(query)
  const facts = view.facts.filter((f) => matches(f) || edits.has(f.id))
  const archived = view.archived_facts.filter(matches)
  byId("fact-count", HTMLElement).textContent = `${facts.length} of ${view.facts.length} facts`
  list.replaceChildren(...facts.map((f) => factCard(ctx, f)))
  reopen(list, edits)
  byId("fact-archive-summary", HTMLElement).textContent =
    `Archived facts (${archived.length} of ${view.archived_facts.length}, read-only)`
  byId("fact-archive-list", HTMLUListElement).replaceChildren(...archived.map(archivedCard))
}

const loadHistory = async (ctx: Ctx, id: string, target: HTMLElement) => {
  const reply = await client.statechartHistory({ name: ctx.name(), entryId: id })
  target.replaceChildren(reply.ok ? historyTable(reply.value.history, "history") : el("p", reply.error.message))
}

const reflectionCard = (ctx: Ctx, r: ReflectionView, factText: ReadonlyMap<string, string>) => {
  const li = card(r.id, r.text)
  const meta = el("p", undefined, "muted")
  const s = r.score
  const scores = `score now ${scoreText(s.now)} → 7 d ${scoreText(s.in_7d)} → 30 d ${scoreText(s.in_30d)}`
  append(
    meta,
    el("span", r.status, `badge status-${r.status}`),
    document.createTextNode(
      ` ${r.id} · ${r.entity} · ${scores} (reinforcement ${r.reinforcement}, disputation ${r.disputation})`
    )
  )
  li.appendChild(meta)
  if (r.source_fact_ids.length > 0) {
    const sources = el("ul", undefined, "sources")
    for (const id of r.source_fact_ids) {
      const text = factText.get(id)
      sources.appendChild(el("li", text === undefined ? id : `${text} (${id})`))
    }
    append(li, el("p", "Source facts", "label"), sources)
  }
  const row = el("div", undefined, "row")
  const hist = el("div", undefined, "hist")
  append(li, row, hist)
  for (const action of ["confirm", "deny", "archive"] as const) {
    const label = action[0]?.toUpperCase() + action.slice(1)
    row.appendChild(
      button(label, () => {
        openHistory.add(r.id)
        void actOn(ctx, "reflection", r.id, action)
      })
    )
  }
  row.appendChild(
    button("History", () => {
      openHistory.add(r.id)
      void loadHistory(ctx, r.id, hist)
    })
  )
  if (openHistory.has(r.id)) void loadHistory(ctx, r.id, hist)
  return li
}

export const renderReflections = (ctx: Ctx, view: View) => {
  const factText = new Map(view.facts.map((f) => [f.id, f.text]))
  const list = byId("reflection-list", HTMLUListElement)
  if (view.reflections.length === 0) list.replaceChildren(el("li", "No reflections yet.", "muted"))
  else list.replaceChildren(...view.reflections.map((r) => reflectionCard(ctx, r, factText)))
}

export const renderPersona = (ctx: Ctx, view: View) => {
  const sections = view.persona.map((s) => {
    const section = el("section", undefined, "psection")
    const list = el("ul", undefined, "cards")
    append(section, el("h3", s.section), list)
    if (s.entries.length === 0) list.appendChild(el("li", "No entries.", "muted"))
    for (const e of s.entries) {
      const li = card(e.id, e.text)
      const meta = el("p", undefined, "muted")
      if (e.protected) meta.appendChild(el("span", "card · read-only", "badge"))
      if (e.suppress) meta.appendChild(el("span", "suppressed", "badge"))
      const versions = `${e.version_history} earlier version${e.version_history === 1 ? "" : "s"}`
      meta.appendChild(document.createTextNode(` ${e.id} · ${e.source} · score ${scoreText(e.score)} · ${versions}`))
      li.appendChild(meta)
      if (!e.protected) {
        const row = el("div", undefined, "row")
        li.appendChild(row)
        append(
          row,
          editable(ctx, li, row, "persona", e.id, e.text),
          button("Archive", () => void actOn(ctx, "persona", e.id, "archive"))
        )
      }
      list.appendChild(li)
    }
    return section
  })
  byId("persona-list", HTMLElement).replaceChildren(...sections)
}
