/**
 * Which reflection journal lines a forget touches, and their tombstones (store/Tombstone.ts): every
 * `reflection.synthesized`, `reflection.updated` and `reflection.state_changed` line of a forgotten reflection
 * becomes a bare tombstone, so no replay can bring its text back. Also the texts those lines carried, for the
 * final search of torn lines.
 */
import { Either, Option } from "effect"
import type { EventLine } from "../store/EventLog.js"
import { tombstone, tombstoneOf } from "../store/Tombstone.js"
import {
  decodeReflection,
  decodeStateChanged,
  REFLECTION_STATE_CHANGED,
  REFLECTION_SYNTHESIZED,
  REFLECTION_UPDATED
} from "./ReflectionEvents.js"
import type { Reflection } from "./Reflection.js"

const carriedBy = (line: EventLine): Option.Option<Reflection> => {
  if (Option.isSome(tombstoneOf(line))) return Option.none()
  if (line.type === REFLECTION_SYNTHESIZED || line.type === REFLECTION_UPDATED)
    return Option.map(Either.getRight(decodeReflection(line.payload)), (p) => p.reflection)
  if (line.type === REFLECTION_STATE_CHANGED)
    return Option.map(Either.getRight(decodeStateChanged(line.payload)), (p) => p.entry_snapshot)
  return Option.none()
}

/** Every version of the reflections of `ids` that journal lines carry. */
export const carriedReflections = (lines: ReadonlyArray<EventLine>, ids: ReadonlySet<string>) =>
  lines.flatMap((l) => Option.toArray(Option.filter(carriedBy(l), (r) => ids.has(r.id))))

/** The tombstone of `line` when it carries a reflection of `ids`; `None` leaves it as it is. */
export const redactReflectionLine =
  (ids: ReadonlySet<string>, reason: string, at: string) =>
  (line: EventLine): Option.Option<EventLine> =>
    Option.map(
      Option.filter(carriedBy(line), (r) => ids.has(r.id)),
      (r) => tombstone(line, { ids: [r.id], reason, at })
    )
