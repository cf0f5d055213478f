/**
 * Small typed DOM helpers shared by the pages: a checked element lookup, element and button factories, the
 * inline editor (a labelled textarea with Save and Cancel) and the lifecycle history table.
 */
import type { HistoryStep } from "../../src/browser/Wire.js"

/** The element with `id`, which must exist and be of `type`. */
export const byId = <T extends HTMLElement>(id: string, type: { new (): T; prototype: T }): T => {
  const e = document.getElementById(id)
  if (!(e instanceof type)) throw new Error(`#${id} is missing`)
  return e
}

export const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text?: string | number,
  cls?: string
): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag)
  if (text !== undefined) e.textContent = String(text)
  if (cls !== undefined) e.className = cls
  return e
}

export const button = (text: string, onClick: () => void, cls?: string): HTMLButtonElement => {
  const b = el("button", text, cls)
  b.type = "button"
  b.addEventListener("click", onClick)
  return b
}

export const append = (parent: Node, ...children: ReadonlyArray<Node>): void => {
  for (const c of children) parent.appendChild(c)
}

/** A labelled textarea with Save and Cancel; focuses itself once shown. */
export const editor = (
  text: string,
  label: string,
  onSave: (text: string) => void,
  onCancel: () => void
): HTMLDivElement => {
  const box = el("div", undefined, "editor")
  const area = el("textarea")
  area.value = text
  area.dataset["original"] = text
  area.rows = 3
  area.setAttribute("aria-label", label)
  const row = el("div", undefined, "row")
  append(
    row,
    button("Save", () => onSave(area.value), "primary"),
    button("Cancel", onCancel)
  )
  append(box, area, row)
  setTimeout(() => area.focus(), 0)
  return box
}

/** The steps of one entry's lifecycle as a table, or a note when the journal never mentions it. */
export const historyTable = (steps: ReadonlyArray<HistoryStep>, cls?: string): HTMLElement => {
  if (steps.length === 0) return el("p", "No journal events mention this entry.", "muted")
  const table = el("table", undefined, cls)
  const head = el("tr")
  for (const h of ["event", "time", "from", "to"]) head.appendChild(el("th", h))
  table.appendChild(head)
  for (const s of steps) {
    const row = el("tr")
    for (const cell of [s.type, s.ts, s.from ?? "", s.to ?? ""]) row.appendChild(el("td", cell))
    table.appendChild(row)
  }
  return table
}

/** An entry's evidence score as shown: a protected entry's is infinite. */
export const scoreText = (n: number | null): string => (n === null ? "∞" : String(n))
