/**
 * One step of the session machine for the actor, memoised. The machine is pure and its snapshots immutable, so
 * a step is a function of the snapshot's state and context and of the event; XState's `transition` builds an
 * inert actor on every call (about 20 µs, once per write), so each distinct step is computed once by the
 * machine and then reused for every character. Only the typed commands the machine emitted are returned.
 */
import { Option } from "effect"
import { transition } from "xstate"
import { decodeCommand, sessionMachine, type SessionCommand, type SessionEvent } from "../../../machines/session.js"
import type { CharacterState } from "../CharacterState.js"

type Snapshot = CharacterState["snapshot"]
type Step = readonly [Snapshot, ReadonlyArray<SessionCommand>]

/** Distinct steps kept before the memo starts afresh (event counts vary; states and contexts are few). */
const KEPT = 4096
const known = new Map<string, Step>()

const keyOf = (s: Snapshot, event: SessionEvent) =>
  `${JSON.stringify(s.value)}|${JSON.stringify(s.context)}|${JSON.stringify(event)}`

/** The snapshot after `event` and the commands the machine emitted for it. */
export const step = (from: Snapshot, event: SessionEvent): Step => {
  const key = keyOf(from, event)
  const hit = known.get(key)
  if (hit !== undefined) return hit
  const [next, emitted] = transition(sessionMachine, from, event)
  const result: Step = [next, emitted.flatMap((a) => Option.toArray(decodeCommand(a)))]
  if (known.size >= KEPT) known.clear()
  known.set(key, result)
  return result
}
