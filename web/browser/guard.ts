/**
 * Unsaved-changes guard: an open inline editor whose text differs from the entry's counts as unsaved, as
 * does any edit of the Recent tab (recent.ts tracks those). Before unsaved edits would be lost — leaving
 * their tab, choosing another character — the page asks in a modal `<dialog>` (Escape keeps editing);
 * leaving the page asks through the browser's own beforeunload prompt.
 */
import { byId } from "../lib/dom.js"

/** Whether an inline editor under `root` holds text that differs from what it was opened with. */
export const editorsChanged = (root: ParentNode): boolean =>
  [...root.querySelectorAll<HTMLTextAreaElement>(".editor textarea")].some((a) => a.value !== a.dataset["original"])

/** Asks whether to discard unsaved edits of `what`; resolves true to discard. */
export const confirmDiscard = (what: string): Promise<boolean> => {
  const dialog = byId("unsaved", HTMLDialogElement)
  byId("unsaved-text", HTMLElement).textContent = `${what} has unsaved changes. Discard them?`
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "discard"), { once: true })
    dialog.returnValue = ""
    dialog.showModal()
    byId("unsaved-stay", HTMLButtonElement).focus()
  })
}

export const initGuard = (dirty: () => boolean) => {
  const dialog = byId("unsaved", HTMLDialogElement)
  byId("unsaved-stay", HTMLButtonElement).addEventListener("click", () => dialog.close("stay"))
  byId("unsaved-discard", HTMLButtonElement).addEventListener("click", () => dialog.close("discard"))
  window.addEventListener("beforeunload", (e) => {
    if (!dirty()) return
    e.preventDefault()
    e.returnValue = ""
  })
}
