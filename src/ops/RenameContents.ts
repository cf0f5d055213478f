/**
 * After a character rename has moved its directory and characters.json entry, the old name is rewritten
 * where it is the identity of a stored message, never in free text (neko-compat §1.8; N.E.K.O.'s rename
 * rewrites recent.json the same way): an exact-match value of the fields `name`, `speaker`, `author`,
 * `character` or `role`, on an item or its `data`, and a speaker label at the start of a line of its text
 * (`Old:`, `Old：`, `Old说：`, `Old说:`, `Old->`, `[Old]`, `Old | `). kioku applies the rule to recent.json and to
 * the raw rows of time_indexed.db, which hold the same items. Facts, reflections and persona entries are
 * left as written (their text is free text; card entries follow characters.json at the next card sync), and
 * the journals stay as they happened. An unreadable recent.json is never rewritten.
 */
import { Effect, Either, Option, Schema } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { RecentFile, StoredMessage } from "../domain/Message.js"
import { readText, writeAtomic } from "../store/DurableFs.js"
import * as TimeIndex from "../store/TimeIndex.js"
import { fileText } from "../recent/RecentStore.js"

const nameFields = ["name", "speaker", "author", "character", "role"] as const
const Part = Schema.Struct({ text: Schema.String }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))
const decodePart = Schema.decodeUnknownOption(Part)
const decodeRecent = Schema.decodeUnknownEither(Schema.parseJson(RecentFile))
const decodeRow = Schema.decodeUnknownOption(Schema.parseJson(StoredMessage))

const renamedFields = (fields: Readonly<Record<string, unknown>>, from: string, to: string) =>
  Object.fromEntries(nameFields.flatMap((k) => (fields[k] === from ? [[k, to]] : [])))

const relabel = (text: string, from: string, to: string): string => {
  const labels = [`${from}说：`, `${from}说:`, `${from}：`, `${from}:`, `${from}->`, `[${from}]`, `${from} | `]
  return text
    .split("\n")
    .map((line) => {
      const label = labels.find((l) => line.startsWith(l))
      return label === undefined ? line : label.replace(from, () => to) + line.slice(label.length)
    })
    .join("\n")
}

const relabelContent = (content: unknown, from: string, to: string): unknown =>
  typeof content === "string"
    ? relabel(content, from, to)
    : Array.isArray(content)
      ? content.map((part) =>
          Option.match(decodePart(part), {
            onNone: () => part,
            onSome: (p) => ({ ...p, text: relabel(p.text, from, to) })
          })
        )
      : content

/** The message with the old name replaced in its identity fields and speaker labels. */
export const renameInMessage = (m: StoredMessage, from: string, to: string): StoredMessage => ({
  ...m,
  ...renamedFields(m, from, to),
  data: { ...m.data, ...renamedFields(m.data, from, to), content: relabelContent(m.data.content, from, to) }
})

const same = (a: StoredMessage, b: StoredMessage) => JSON.stringify(a) === JSON.stringify(b)

const rewriteRecent = (dir: string, from: string, to: string) =>
  Effect.gen(function* () {
    const file = path.join(dir, "recent.json")
    const text = yield* readText(file)
    if (Option.isNone(text)) return 0
    const items = decodeRecent(text.value)
    if (Either.isLeft(items)) return 0
    const next = items.right.map((m) => renameInMessage(m, from, to))
    const changed = next.filter((m, i) => !same(m, items.right[i] ?? m)).length
    if (changed > 0) yield* writeAtomic(file, fileText(next))
    return changed
  })

const rewriteRow = (from: string, to: string) => (message: string) =>
  Option.getOrUndefined(
    Option.flatMap(decodeRow(message), (m) => {
      const next = renameInMessage(m, from, to)
      return same(m, next) ? Option.none() : Option.some(JSON.stringify(next))
    })
  )

/** Rewrites the character directory `dir` (already renamed from `from` to `to`); answers what changed. */
export const rewriteNames = (dir: string, from: string, to: string) =>
  Effect.gen(function* () {
    const recent = yield* rewriteRecent(dir, from, to)
    const db = path.join(dir, "time_indexed.db")
    const rows = existsSync(db)
      ? yield* Effect.acquireUseRelease(
          TimeIndex.open(db),
          (index) => index.rewriteMessages(from, rewriteRow(from, to)),
          (index) => index.close
        )
      : 0
    return { recent, rows }
  })
