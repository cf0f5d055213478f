/**
 * The recent-history memo (recent.json's leading system item, neko-compat §2.1): a localized prefix, the
 * summary and, after a line of three or more hyphens, an "older" section. The page edits the summary and
 * the older section in separate boxes and keeps the prefix; `joinMemo` puts them back with one canonical
 * `\n\n---\n\n` divider (N.E.K.O.'s page saves the same form), or the summary alone when the older box is
 * empty, and returns the loaded text unchanged when neither box was edited.
 */
import { memoPrefix } from "../../src/recent/prompts.js"

export interface Memo {
  readonly prefix: string
  readonly body: string
  readonly older: string
}

/** kioku's prefixes, and the two N.E.K.O.'s page writes in other words. */
const prefixes = [...Object.values(memoPrefix), "Previous conversation memo: ", "前回の会話のメモ: "]
const divider = /(?:\r?\n)+[ \t]*-{3,}[ \t]*(?:\r?\n)+/

export const splitMemo = (text: string): Memo => {
  const prefix = prefixes.find((p) => text.startsWith(p)) ?? ""
  const rest = text.slice(prefix.length)
  const m = divider.exec(rest)
  return m === null
    ? { prefix, body: rest, older: "" }
    : { prefix, body: rest.slice(0, m.index), older: rest.slice(m.index + m[0].length) }
}

export const joinMemo = (loaded: string, memo: Memo): string => {
  const before = splitMemo(loaded)
  if (before.prefix === memo.prefix && before.body === memo.body && before.older === memo.older) return loaded
  const body = memo.body.replace(/(?:[ \t]*\r?\n)+$/, "")
  const older = memo.older.replace(/^(?:[ \t]*\r?\n)+/, "").trimEnd()
  return memo.prefix + (older === "" ? body : `${body}\n\n---\n\n${older}`)
}
