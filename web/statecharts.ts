/**
 * The `/statecharts` page script: live counts per state for the chosen character (and the live actors'
 * session states in the header), a state's entries in the side panel (click, Enter or Space on a state),
 * and an entry's lifecycle history from the journal.
 */
import * as Schema from "effect/Schema"
import { MachineName } from "../src/api/Schemas.js"
import { client } from "./lib/api.js"
import { fillPicker } from "./lib/characters.js"
import { append, button, byId, el, historyTable } from "./lib/dom.js"

const picker = byId("character", HTMLSelectElement)
const panel = byId("panel", HTMLElement)
const status = byId("status", HTMLElement)
const isMachine = Schema.is(MachineName)

const states = (): ReadonlyArray<SVGGElement> => [...document.querySelectorAll<SVGGElement>("g.state")]

const show = (title: string, ...body: ReadonlyArray<Node>) => {
  panel.textContent = ""
  append(panel, el("h2", title), ...body)
}

const counts = async () => {
  const name = picker.value
  if (name === "") {
    status.textContent = "No character selected."
    return
  }
  const reply = await client.statechartCounts({ name })
  if (!reply.ok) {
    status.textContent = `Could not load counts: ${reply.error.message}`
    return
  }
  const c = reply.value
  for (const g of states()) {
    const n = c.machines[g.dataset["machine"] ?? ""]?.[g.dataset["state"] ?? ""] ?? 0
    const count = g.querySelector(".count")
    if (count !== null) count.textContent = String(n)
    g.setAttribute("aria-label", `${g.dataset["state"] ?? ""} (${n} entries)`)
  }
  status.textContent = `${name}: session ${c.session ?? "not loaded"}, recent memory ${c.recent ?? "not loaded"}`
  const live = await client.liveActors()
  if (live.ok) {
    const actors = live.value.actors.map((a) => `${a.name} (${a.session ?? "?"})`)
    byId("live", HTMLElement).textContent = ` · live actors: ${actors.length > 0 ? actors.join(", ") : "none"}`
  }
}

const history = async (id: string) => {
  const reply = await client.statechartHistory({ name: picker.value, entryId: id })
  if (!reply.ok) show("History", el("p", reply.error.message))
  else show(`History of ${id}`, historyTable(reply.value.history))
}

const entries = async (g: SVGGElement) => {
  for (const s of states()) s.classList.toggle("selected", s === g)
  const machine = g.dataset["machine"] ?? ""
  const state = g.dataset["state"] ?? ""
  if (!isMachine(machine)) return show(`${machine} · ${state}`, el("p", "Not a machine of kioku."))
  const reply = await client.statechartEntries({ name: picker.value, query: { machine, state } })
  if (!reply.ok) {
    show(`${machine} · ${state}`, el("p", reply.error.message))
    return
  }
  const list = el("ul")
  for (const e of reply.value.entries) {
    const b = button(e.text === "" ? e.id : e.text, () => void history(e.id))
    b.appendChild(el("div", e.id + (e.score === null ? "" : ` · score ${e.score}`), "muted"))
    list.appendChild(el("li")).appendChild(b)
  }
  const { length } = reply.value.entries
  show(`${machine} · ${state} (${length})`, length > 0 ? list : el("p", "No entries in this state.", "muted"))
}

for (const g of states()) {
  g.addEventListener("click", () => void entries(g))
  g.addEventListener("keydown", (e) => {
    if (e.key !== "Enter" && e.key !== " ") return
    e.preventDefault()
    void entries(g)
  })
}
picker.addEventListener("change", () => void counts())
void fillPicker(picker).then(counts)
