/**
 * Conversation messages in N.E.K.O.'s on-disk shape (`{type, data: {content}}`) and the normalisation of
 * request messages (OpenAI-style, on-disk style, anything else becomes a human message).
 * Extra keys on stored items are preserved so a rewrite never drops what another writer added.
 */
import { Option, Schema } from "effect"

export const MessageType = Schema.Literal("human", "ai", "system")
export type MessageType = typeof MessageType.Type

const Rest = Schema.Record({ key: Schema.String, value: Schema.Unknown })

export const MessageData = Schema.Struct({ content: Schema.Unknown }, Rest)

export const StoredMessage = Schema.Struct({ type: Schema.String, data: MessageData }, Rest)
export type StoredMessage = typeof StoredMessage.Type

export const RecentFile = Schema.Array(StoredMessage)
export type RecentFile = typeof RecentFile.Type

const TextPart = Schema.Struct({ type: Schema.Literal("text"), text: Schema.String })
const decodeTextPart = Schema.decodeUnknownOption(TextPart)

/** The text of a content value: a string, or the text parts of a part list joined by newlines. */
export const contentText = (content: unknown): string => {
  if (typeof content === "string") return content
  if (Array.isArray(content)) {
    return content.flatMap((part) => Option.toArray(Option.map(decodeTextPart(part), (p) => p.text))).join("\n")
  }
  return content === null || content === undefined ? "" : JSON.stringify(content)
}

export const messageText = (m: StoredMessage): string => contentText(m.data.content)

const OpenAiMessage = Schema.Struct({ role: Schema.String, content: Schema.optional(Schema.Unknown) })
const OnDiskMessage = Schema.Struct({ type: MessageType, data: Schema.Struct({ content: Schema.Unknown }) })
const decodeOpenAi = Schema.decodeUnknownOption(OpenAiMessage)
const decodeOnDisk = Schema.decodeUnknownOption(OnDiskMessage)

const roleType = (role: string): MessageType =>
  role === "assistant" || role === "ai" ? "ai" : role === "system" ? "system" : "human"

const make = (type: MessageType, content: unknown): StoredMessage => ({
  type,
  data: { content: typeof content === "string" || Array.isArray(content) ? content : contentText(content) }
})

/** Normalises one request item to the on-disk shape. */
export const normaliseMessage = (item: unknown): StoredMessage => {
  // Without `data` it cannot be the on-disk shape: skip building that decoder's failure.
  const disk = typeof item === "object" && item !== null && "data" in item ? decodeOnDisk(item) : Option.none()
  if (Option.isSome(disk)) return make(disk.value.type, disk.value.data.content)
  const openAi = decodeOpenAi(item)
  if (Option.isSome(openAi)) return make(roleType(openAi.value.role), openAi.value.content ?? "")
  if (typeof item === "string") return make("human", item)
  return make("human", JSON.stringify(item))
}

export const isHuman = (m: StoredMessage): boolean => m.type === "human"
