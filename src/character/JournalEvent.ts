/**
 * Every journal event of a character, decoded from its line: the recent, fact, reflection and persona events
 * each feature defines (recent/RecentEvents.ts, facts/FactEvents.ts, reflection/ReflectionEvents.ts,
 * persona/PersonaEvent.ts). Apply.ts applies them. A redaction tombstone (store/Tombstone.ts) of a fact line
 * decodes as `FactRedacted` (its ids are removed again, a merge's unforgotten `kept` fact upserted); a
 * tombstone of any other type is a no-op `Tombstone`.
 */
import { Either } from "effect"
import type { EventLine } from "../store/EventLog.js"
import { tombstoneOf } from "../store/Tombstone.js"
import type { PersonaOp } from "../persona/PersonaStore.js"
import { personaOp, personaTypes } from "../persona/PersonaEvent.js"
import {
  decodeSplice,
  builtTurns,
  decodeTurns,
  RECENT_SPLICED,
  TURNS_APPENDED,
  type SplicePayload,
  type TurnsPayload
} from "../recent/RecentEvents.js"
import {
  decodeAbsorbed,
  decodeFact,
  decodeForgotten,
  decodeMove,
  decodeRedactedFact,
  FACT_ABSORBED,
  FACT_TEXT_TYPES,
  FACT_ADDED,
  FACT_ARCHIVED,
  FACT_FORGOTTEN,
  FACT_MERGED,
  FACT_UPDATED,
  type FactAbsorbedPayload,
  type FactForgottenPayload,
  type FactMovePayload,
  type FactPayload,
  type FactRedactedPayload
} from "../facts/FactEvents.js"
import {
  decodeReflection,
  decodeReflectionForgotten,
  REFLECTION_FORGOTTEN,
  type ReflectionForgottenPayload,
  decodeStateChanged,
  REFLECTION_STATE_CHANGED,
  REFLECTION_SYNTHESIZED,
  REFLECTION_UPDATED,
  type ReflectionPayload,
  type StateChangedPayload
} from "../reflection/ReflectionEvents.js"

export * from "../recent/RecentEvents.js"
export * from "../facts/FactEvents.js"
export * from "../reflection/ReflectionEvents.js"

export type JournalEvent =
  | { readonly _tag: "Turns"; readonly eventId: string; readonly payload: TurnsPayload }
  | { readonly _tag: "Splice"; readonly eventId: string; readonly payload: SplicePayload }
  | { readonly _tag: "Fact"; readonly eventId: string; readonly payload: FactPayload }
  | { readonly _tag: "FactMove"; readonly eventId: string; readonly payload: FactMovePayload }
  | { readonly _tag: "FactAbsorbed"; readonly eventId: string; readonly payload: FactAbsorbedPayload }
  | { readonly _tag: "FactForgotten"; readonly eventId: string; readonly payload: FactForgottenPayload }
  | { readonly _tag: "FactRedacted"; readonly eventId: string; readonly payload: FactRedactedPayload }
  | { readonly _tag: "Tombstone"; readonly eventId: string }
  | { readonly _tag: "ReflectionAdded"; readonly eventId: string; readonly payload: ReflectionPayload }
  | { readonly _tag: "ReflectionChanged"; readonly eventId: string; readonly payload: StateChangedPayload }
  | { readonly _tag: "ReflectionForgotten"; readonly eventId: string; readonly payload: ReflectionForgottenPayload }
  | { readonly _tag: "Persona"; readonly eventId: string; readonly op: PersonaOp }

export type TurnEvent = Extract<JournalEvent, { _tag: "Turns" }>

export const fromLine = (line: EventLine): Either.Either<JournalEvent, string> => {
  const bad = () => "payload does not decode"
  if (FACT_TEXT_TYPES.has(line.type) && tombstoneOf(line)._tag === "Some") {
    return Either.mapBoth(decodeRedactedFact(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "FactRedacted" as const, eventId: line.event_id, payload })
    })
  }
  if (tombstoneOf(line)._tag === "Some") return Either.right({ _tag: "Tombstone" as const, eventId: line.event_id })
  if (line.type === TURNS_APPENDED) {
    const known = builtTurns(line)
    if (known !== undefined) return Either.right({ _tag: "Turns" as const, eventId: line.event_id, payload: known })
    return Either.mapBoth(decodeTurns(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "Turns" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === RECENT_SPLICED) {
    return Either.mapBoth(decodeSplice(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "Splice" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_ADDED || line.type === FACT_UPDATED) {
    return Either.mapBoth(decodeFact(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "Fact" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_ARCHIVED || line.type === FACT_MERGED) {
    return Either.mapBoth(decodeMove(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "FactMove" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_FORGOTTEN) {
    return Either.mapBoth(decodeForgotten(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "FactForgotten" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === REFLECTION_STATE_CHANGED) {
    return Either.mapBoth(decodeStateChanged(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "ReflectionChanged" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === REFLECTION_SYNTHESIZED || line.type === REFLECTION_UPDATED) {
    return Either.mapBoth(decodeReflection(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "ReflectionAdded" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === REFLECTION_FORGOTTEN) {
    return Either.mapBoth(decodeReflectionForgotten(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "ReflectionForgotten" as const, eventId: line.event_id, payload })
    })
  }
  if (line.type === FACT_ABSORBED) {
    return Either.mapBoth(decodeAbsorbed(line.payload), {
      onLeft: bad,
      onRight: (payload) => ({ _tag: "FactAbsorbed" as const, eventId: line.event_id, payload })
    })
  }
  if (personaTypes.has(line.type)) {
    return Either.map(personaOp(line), (op) => ({ _tag: "Persona" as const, eventId: line.event_id, op }))
  }
  return Either.left(`no handler for event type ${line.type}`)
}
