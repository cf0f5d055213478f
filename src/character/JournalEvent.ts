/**
 * Every journal event of a character, decoded from its line: the recent, fact, reflection and persona events
 * each feature defines (recent/RecentEvents.ts, facts/FactEvents.ts, reflection/ReflectionEvents.ts,
 * persona/PersonaEvent.ts). Apply.ts applies them.
 */
import { Either } from "effect"
import type { EventLine } from "../store/EventLog.js"
import type { PersonaOp } from "../persona/PersonaStore.js"
import { personaOp, personaTypes } from "../persona/PersonaEvent.js"
import {
  decodeSplice,
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
  FACT_ABSORBED,
  FACT_ADDED,
  FACT_ARCHIVED,
  FACT_FORGOTTEN,
  FACT_MERGED,
  FACT_UPDATED,
  type FactAbsorbedPayload,
  type FactForgottenPayload,
  type FactMovePayload,
  type FactPayload
} from "../facts/FactEvents.js"
import {
  decodeReflection,
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
  | { readonly _tag: "ReflectionAdded"; readonly eventId: string; readonly payload: ReflectionPayload }
  | { readonly _tag: "ReflectionChanged"; readonly eventId: string; readonly payload: StateChangedPayload }
  | { readonly _tag: "Persona"; readonly eventId: string; readonly op: PersonaOp }

export type TurnEvent = Extract<JournalEvent, { _tag: "Turns" }>

export const fromLine = (line: EventLine): Either.Either<JournalEvent, string> => {
  const bad = () => "payload does not decode"
  if (line.type === TURNS_APPENDED) {
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
