/**
 * The conversation `kioku eval memory` holds with a character: the set's statements in order, its fillers
 * spread evenly between them, each user line answered by the next of the character's acknowledgements, cut
 * into sessions of `sessionSize` user turns. Every other user line is sent as a list of text parts, the
 * shape N.E.K.O.'s own client sends, the others as plain strings. A session opens with `/new_dialog`, sends
 * each turn with `/cache` (the connector's per-turn sync of `[user, assistant]`) and its last one with
 * `/process` (session end with an unsynced tail). Pure: the runner does the sending.
 */
import type { MemorySet } from "./MemorySet.js"

export interface DialogueTurn {
  readonly kind: "statement" | "filler"
  /** The statement's or filler's id. */
  readonly id: string
  readonly text: string
  readonly ack: string
  /** Sent as `[{"type":"text","text":…}]` instead of a string. */
  readonly parts: boolean
}

export const defaultSessionSize = 10

/** The user turns in the order they are said. */
export const turnsOf = (set: MemorySet): ReadonlyArray<DialogueTurn> => {
  const s = set.statements.length
  const f = set.fillers.length
  const lines: Array<Omit<DialogueTurn, "ack" | "parts">> = []
  const slot = (k: number) => Math.floor(((k + 1) * s) / (f + 1))
  let k = 0
  for (let i = 0; i <= s; i++) {
    for (; k < f && slot(k) === i; k++) {
      const filler = set.fillers[k]
      if (filler) lines.push({ kind: "filler", id: filler.id, text: filler.text })
    }
    const statement = set.statements[i]
    if (statement) lines.push({ kind: "statement", id: statement.id, text: statement.text })
  }
  const acks = set.acknowledgements
  return lines.map((line, j) => ({ ...line, ack: acks[j % acks.length] ?? acks[0], parts: j % 2 === 1 }))
}

export const sessionsOf = (
  turns: ReadonlyArray<DialogueTurn>,
  sessionSize = defaultSessionSize
): ReadonlyArray<ReadonlyArray<DialogueTurn>> =>
  Array.from({ length: Math.ceil(turns.length / sessionSize) }, (_, i) =>
    turns.slice(i * sessionSize, (i + 1) * sessionSize)
  )

/** The messages of one turn in OpenAI style, as the connector sends them. */
export const messagesOf = (turn: DialogueTurn): ReadonlyArray<{ readonly role: string; readonly content: unknown }> => [
  { role: "user", content: turn.parts ? [{ type: "text", text: turn.text }] : turn.text },
  { role: "assistant", content: turn.ack }
]
