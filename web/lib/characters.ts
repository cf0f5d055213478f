/**
 * Fills a page's character picker from the character directories and selects `?character=` when it names
 * one of them.
 */
import { Characters } from "../../src/browser/Wire.js"
import { request } from "./api.js"
import { el } from "./dom.js"

export const fillPicker = async (picker: HTMLSelectElement): Promise<void> => {
  const reply = await request(Characters, "/api/memory/statecharts/characters")
  const names = reply._tag === "ok" ? reply.value.characters : []
  for (const c of names) {
    const option = el("option", c)
    option.value = c
    picker.appendChild(option)
  }
  const wanted = new URLSearchParams(location.search).get("character")
  if (wanted !== null && names.includes(wanted)) picker.value = wanted
}
