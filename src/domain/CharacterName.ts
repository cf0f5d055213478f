/**
 * Character names (`lanlan_name`): validation rules of the N.E.K.O. memory server, so a name that
 * reaches the store is always a safe single directory name on every platform.
 */
import { Either, Schema } from "effect"

export const CharacterName = Schema.String.pipe(Schema.brand("CharacterName"))
export type CharacterName = typeof CharacterName.Type

export class InvalidCharacterName extends Schema.TaggedError<InvalidCharacterName>()("InvalidCharacterName", {
  detail: Schema.Literal("Invalid lanlan_name length", "Invalid characters in lanlan_name")
}) {
  override get message(): string {
    return this.detail
  }
}

export const MAX_NAME_LENGTH = 50

const windowsReserved = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)$/i
const reservedRoutes = new Set(["health", "shutdown", "reload", "internal", "api", "static", "memory_browser"])
const allowed = /^[\p{L}\p{M}\p{N} _\-()（）·・'’.]+$/u

/** Names already found valid (every request names its character): checked once, up to 10,000 kept. */
const known = new Map<string, CharacterName>()

export const validateCharacterName = (raw: string): Either.Either<CharacterName, InvalidCharacterName> => {
  const seen = known.get(raw)
  if (seen !== undefined) return Either.right(seen)
  const name = raw.trim()
  if (name.length === 0 || [...name].length > MAX_NAME_LENGTH) {
    return Either.left(new InvalidCharacterName({ detail: "Invalid lanlan_name length" }))
  }
  const stem = name.split(".")[0] ?? ""
  const bad =
    name.includes("/") ||
    name.includes("\\") ||
    name.includes("..") ||
    name === "." ||
    name.endsWith(".") ||
    windowsReserved.test(stem.trim()) ||
    reservedRoutes.has(name.toLowerCase()) ||
    !allowed.test(name)
  if (bad) return Either.left(new InvalidCharacterName({ detail: "Invalid characters in lanlan_name" }))
  const valid = CharacterName.make(name)
  if (known.size >= 10_000) known.clear()
  known.set(raw, valid)
  return Either.right(valid)
}
