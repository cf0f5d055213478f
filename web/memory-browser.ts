/**
 * The `/memory_browser` page script: the character picker, the tab list (arrow keys move between tabs),
 * and the per-character load that fills the Facts, Reflections, Persona and Subjects tabs, the Recent tab
 * and the funnel. Leaving a tab, the character or the page with unsaved edits asks first (guard.ts). Every answer
 * is decoded with the Wire schemas the server types its bodies against.
 */
import { client } from "./lib/api.js"
import { fillPicker } from "./lib/characters.js"
import { byId } from "./lib/dom.js"
import type { Ctx, View } from "./browser/context.js"
import { confirmDiscard, editorsChanged, initGuard } from "./browser/guard.js"
import { openHistory, renderFacts, renderPersona, renderReflections } from "./browser/lists.js"
import { makeRecent } from "./browser/recent.js"
import { initSettings, renderFunnel } from "./browser/settings.js"
import { initSubjects, renderSubjects } from "./browser/subjects.js"

const picker = byId("character", HTMLSelectElement)
const status = byId("status", HTMLElement)
let view: View | null = null

const rerender = () => {
  if (view === null) return
  renderFacts(ctx, view)
  renderReflections(ctx, view)
  renderPersona(ctx, view)
  renderSubjects(ctx, view)
}

const reload = async (message?: string) => {
  const name = picker.value
  if (name === "") return ctx.say("No character selected.")
  const reply = await client.browserView({ name })
  if (!reply.ok) return ctx.say(`Could not load ${name}: ${reply.error.message}`)
  view = reply.value
  rerender()
  void renderFunnel(name)
  const subjects = view.subjects.length === 0 ? "" : `, ${view.subjects.length} group-chat subjects`
  ctx.say(message ?? `${name}: ${view.facts.length} facts, ${view.reflections.length} reflections${subjects}.`)
}

const ctx: Ctx = {
  name: () => picker.value,
  say: (text) => (status.textContent = text),
  reload,
  rerender
}

const recent = makeRecent(ctx.name)
const tabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")]
const panelOf = (tab: HTMLButtonElement) => byId(tab.getAttribute("aria-controls") ?? "", HTMLElement)
const tabDirty = (tab: HTMLButtonElement) => (tab.id === "tab-recent" ? recent.dirty() : editorsChanged(panelOf(tab)))
const discard = async (tab: HTMLButtonElement) => (tab.id === "tab-recent" ? recent.load() : rerender())

const select = (tab: HTMLButtonElement) => {
  for (const t of tabs) {
    const on = t === tab
    t.setAttribute("aria-selected", String(on))
    t.tabIndex = on ? 0 : -1
    panelOf(t).hidden = !on
  }
}
/** Moves to `tab`, first asking whether to discard the current tab's unsaved edits. */
const go = async (tab: HTMLButtonElement) => {
  const current = tabs.find((t) => t.getAttribute("aria-selected") === "true")
  if (current !== undefined && current !== tab && tabDirty(current)) {
    if (!(await confirmDiscard(`The ${current.textContent ?? ""} tab`))) return current.focus()
    await discard(current)
  }
  select(tab)
  tab.focus()
}
tabs.forEach((t, i) => {
  t.addEventListener("click", () => void go(t))
  t.addEventListener("keydown", (e) => {
    const step = e.key === "ArrowRight" ? 1 : e.key === "ArrowLeft" ? -1 : 0
    const next = tabs[(i + step + tabs.length) % tabs.length]
    if (step === 0 || next === undefined) return
    e.preventDefault()
    void go(next)
  })
})
const anyDirty = () => tabs.some(tabDirty)
initGuard(anyDirty)

byId("fact-search", HTMLInputElement).addEventListener("input", () => {
  if (view !== null) renderFacts(ctx, view, true)
})
let shown = ""
picker.addEventListener("change", async () => {
  if (anyDirty() && !(await confirmDiscard(shown))) {
    picker.value = shown
    return picker.focus()
  }
  shown = picker.value
  openHistory.clear()
  ctx.say("")
  void reload()
  void recent.load()
})
initSettings()
initSubjects()
void fillPicker(picker).then(() => {
  shown = picker.value
  void reload()
  void recent.load()
})
