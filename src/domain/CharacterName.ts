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

export const validateCharacterName = (raw: string): Either.Either<CharacterName, InvalidCharacterName> => {
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
  return Either.right(CharacterName.make(name))
}
