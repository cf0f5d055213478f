/**
 * The Recent tab: recent.json through N.E.K.O.'s recent-file protocol. The snapshot's fingerprint and
 * identity token go back with the save; a 409 shows a reload prompt and never replays the old chat. The
 * leading system item is the memo, edited as its summary and its older section (memo.ts); clear keeps it. A save is announced as `memory_edited` on the
 * `neko_page_channel` BroadcastChannel, as N.E.K.O.'s page does.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { Content, RecentItem, RecentItems, type ChatRole } from "../../src/browser/Wire.js"
import { client } from "../lib/api.js"
import { append, button, byId, el } from "../lib/dom.js"
import { joinMemo, splitMemo, type Memo } from "./memo.js"

interface Message {
  readonly role: ChatRole
  text: string
}
interface Loaded {
  readonly file: string
  fingerprint: string
  identity: string
  /** The memo as loaded or last saved; null when the history has none. */
  memo: string | null
  draft: Memo
  messages: Array<Message>
}

const decodeItems = Schema.decodeUnknownOption(Schema.parseJson(RecentItems))
const decodeItem = Schema.decodeUnknownOption(RecentItem)
const decodeContent = Schema.decodeUnknownOption(Content)

const textOf = (content: unknown): string =>
  Option.match(decodeContent(content), {
    onNone: () => "",
    onSome: (c) => (typeof c === "string" ? c : c.map((p) => (typeof p === "string" ? p : (p.text ?? ""))).join(""))
  })

const roleOf = (raw: string): ChatRole =>
  raw === "user" || raw === "human" ? "human" : raw === "system" ? "system" : "ai"

/** recent.json's items as chat messages (N.E.K.O.'s LangChain items or OpenAI role/content items). */
export const toChat = (content: string): Array<Message> =>
  Option.getOrElse(decodeItems(content), (): ReadonlyArray<unknown> => []).map((raw) =>
    Option.match(decodeItem(raw), {
      onNone: (): Message => ({ role: "ai", text: "" }),
      onSome: (i): Message => ({
        role: roleOf(i.type ?? i.role ?? i.data?.type ?? "ai"),
        text: textOf(i.data === undefined ? i.content : i.data.content)
      })
    })
  )

export const makeRecent = (name: () => string) => {
  let recent: Loaded | null = null
  /** Edits made, and how many of them the file holds (a save covers the edits made before it was sent). */
  let edits = 0
  let saved = 0
  const memo = byId("memo", HTMLTextAreaElement)
  const older = byId("memo-older", HTMLTextAreaElement)
  const prefix = byId("memo-prefix", HTMLElement)
  const message = byId("recent-msg", HTMLElement)
  const conflict = byId("recent-conflict", HTMLElement)
  const save = byId("recent-save", HTMLButtonElement)
  const clear = byId("recent-clear", HTMLButtonElement)

  const render = () => {
    const list = byId("recent-list", HTMLUListElement)
    save.disabled = recent === null
    clear.disabled = recent === null
    memo.disabled = recent === null
    older.disabled = recent === null
    memo.value = recent?.draft.body ?? ""
    older.value = recent?.draft.older ?? ""
    const lead = recent?.draft.prefix.trim() ?? ""
    prefix.textContent = lead === "" ? "" : `Kept before the summary: “${lead}”`
    if (recent === null) return list.replaceChildren()
    const current = recent
    const items = current.messages.map((m, i) => {
      const li = el("li", undefined, `card msg-${m.role}`)
      const label = el("label", m.role === "human" ? "User" : m.role === "ai" ? "Character" : "System", "label")
      const area = el("textarea")
      area.id = `msg-${i}`
      label.htmlFor = area.id
      area.value = m.text
      area.rows = 2
      area.addEventListener("input", () => {
        m.text = area.value
        edits += 1
      })
      const row = el("div", undefined, "row")
      row.appendChild(
        button("Delete", () => {
          current.messages.splice(i, 1)
          edits += 1
          render()
        })
      )
      append(li, label, area, row)
      return li
    })
    list.replaceChildren(...(items.length > 0 ? items : [el("li", "No messages.", "muted")]))
  }

  const load = async () => {
    const file = `recent_${name()}.json`
    recent = null
    saved = edits
    conflict.hidden = true
    message.textContent = ""
    if (name() === "") return render()
    const reply = await client.recentFile({ query: { filename: file } })
    if (!reply.ok) {
      message.textContent =
        reply.status === 404
          ? `No recent history for ${name()}.`
          : `Could not load recent history: ${reply.error.message}`
      return render()
    }
    const chat = toChat(reply.value.content)
    const first = chat[0]
    const memoText = first !== undefined && first.role === "system" ? first.text : null
    recent = {
      file,
      fingerprint: reply.value.fingerprint,
      identity: reply.value.identity_token,
      memo: memoText,
      draft: splitMemo(memoText ?? ""),
      messages: memoText === null ? chat : chat.slice(1)
    }
    render()
  }

  const store = async () => {
    if (recent === null) return
    const current = recent
    const memoText = joinMemo(current.memo ?? "", current.draft)
    const keepMemo = current.memo !== null || memoText.trim() !== ""
    const memoLine = { role: "system", text: memoText } as const
    const chat = [...(keepMemo ? [memoLine] : []), ...current.messages]
    const body = { filename: current.file, fingerprint: current.fingerprint, identity_token: current.identity, chat }
    const sent = edits
    const reply = await client.saveRecentFile({ body })
    if (!reply.ok) {
      if (reply.status !== 409) message.textContent = `Could not save: ${reply.error.message}`
      else {
        conflict.hidden = false
        message.textContent = ""
        byId("recent-reload", HTMLButtonElement).focus()
      }
      return
    }
    current.fingerprint = reply.value.fingerprint
    current.identity = reply.value.identity_token
    current.memo = keepMemo ? memoText : null
    saved = sent
    message.textContent = "Saved."
    try {
      new BroadcastChannel("neko_page_channel").postMessage({ action: "memory_edited", catgirl_name: name() })
    } catch {
      // No BroadcastChannel: nothing else listens in this browser.
    }
  }

  save.addEventListener("click", () => void store())
  clear.addEventListener("click", () => {
    if (recent === null) return
    recent.messages = []
    edits += 1
    render()
    message.textContent = "Cleared (the memo is kept); save to apply."
  })
  byId("recent-reload", HTMLButtonElement).addEventListener("click", () => void load())
  memo.addEventListener("input", () => {
    if (recent !== null) recent.draft = { ...recent.draft, body: memo.value }
    edits += 1
  })
  older.addEventListener("input", () => {
    if (recent !== null) recent.draft = { ...recent.draft, older: older.value }
    edits += 1
  })
  return { load, dirty: () => recent !== null && edits !== saved }
}
