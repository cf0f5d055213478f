/**
 * Fills a page's character picker from the character directories and selects `?character=` when it names
 * one of them.
 */
import { client } from "./api.js"
import { el } from "./dom.js"

export const fillPicker = async (picker: HTMLSelectElement): Promise<void> => {
  const reply = await client.statechartCharacters()
  const names = reply.ok ? reply.value.characters : []
  for (const c of names) {
    const option = el("option", c)
    option.value = c
    picker.appendChild(option)
  }
  const wanted = new URLSearchParams(location.search).get("character")
  if (wanted !== null && names.includes(wanted)) picker.value = wanted
}
