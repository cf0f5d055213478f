/**
 * The memory browser's contract for `recent.json` (neko-compat §1.8): logical file names
 * (`recent_<character>.json`), the optimistic-concurrency tokens — `fingerprint` = sha256 of the snapshot
 * text, `identity_token` = sha256 of `pathKey + "\0" + generation` — the validation of a save's `chat`, and
 * the legacy LangChain shape every saved item is written in.
 */
import { Either, Schema } from "effect"
import { createHash } from "node:crypto"
import { validateCharacterName, type CharacterName } from "../domain/CharacterName.js"
import type { StoredMessage } from "../domain/Message.js"

export const MAX_ITEMS = 10_000
export const MAX_ITEM_CHARS = 32_768
export const MAX_TOTAL_CHARS = 2_097_152

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex")

export const fingerprintOf = (content: string): string => sha256(content)

export const identityTokenOf = (pathKey: string, generation: string): string => sha256(`${pathKey}\0${generation}`)

export const fileNameOf = (name: string): string => `recent_${name}.json`

/** The character a logical file name stands for, or the N.E.K.O. error text for a bad name. */
export const characterOfFile = (filename: string): Either.Either<CharacterName, string> => {
  if (filename.includes("/") || filename.includes("\\") || filename.includes(".."))
    return Either.left("文件名不能包含路径分隔符或目录遍历字符")
  if (!filename.startsWith("recent_") || !filename.endsWith(".json")) return Either.left("文件名不合法")
  return Either.mapLeft(validateCharacterName(filename.slice("recent_".length, -".json".length)), () => "文件名不合法")
}

export const ChatItem = Schema.Struct({
  role: Schema.Literal("human", "ai", "system"),
  text: Schema.optional(Schema.NullOr(Schema.String))
})
export type ChatItem = typeof ChatItem.Type

const decodeChat = Schema.decodeUnknownEither(Schema.Array(ChatItem))

/** The posted `chat`, checked against N.E.K.O.'s limits; the error text otherwise. */
export const validateChat = (chat: unknown): Either.Either<ReadonlyArray<ChatItem>, string> => {
  if (!Array.isArray(chat)) return Either.left("chat must be a list")
  if (chat.length > MAX_ITEMS) return Either.left(`chat has more than ${MAX_ITEMS} items`)
  const decoded = decodeChat(chat)
  if (Either.isLeft(decoded))
    return Either.left('each chat item needs role "human", "ai" or "system" and a string text')
  let total = 0
  for (const item of decoded.right) {
    const length = [...(item.text ?? "")].length
    if (length > MAX_ITEM_CHARS) return Either.left(`a chat item is longer than ${MAX_ITEM_CHARS} characters`)
    total += length
  }
  if (total > MAX_TOTAL_CHARS) return Either.left(`chat is longer than ${MAX_TOTAL_CHARS} characters in total`)
  return Either.right(decoded.right)
}

/** One saved item in the legacy LangChain shape N.E.K.O.'s browser save writes. */
export const langChainItem = (item: ChatItem): StoredMessage => ({
  type: item.role,
  data: {
    content: item.text ?? "",
    additional_kwargs: {},
    response_metadata: {},
    type: item.role,
    name: null,
    id: null,
    example: false,
    ...(item.role === "ai" ? { tool_calls: [], invalid_tool_calls: [], usage_metadata: null } : {})
  }
})
