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
import { memoKeyed } from "../../domain/Memo.js"

type Snapshot = CharacterState["snapshot"]
type Step = readonly [Snapshot, ReadonlyArray<SessionCommand>]

interface Input {
  readonly from: Snapshot
  readonly event: SessionEvent
}

/** Distinct steps are kept until 4,096 (event counts vary; states and contexts are few), then start afresh. */
const memo = memoKeyed(
  ({ from, event }: Input) => `${JSON.stringify(from.value)}|${JSON.stringify(from.context)}|${JSON.stringify(event)}`,
  ({ from, event }: Input): Step => {
    const [next, emitted] = transition(sessionMachine, from, event)
    return [next, emitted.flatMap((a) => Option.toArray(decodeCommand(a)))]
  },
  4096
)

/** The snapshot after `event` and the commands the machine emitted for it. */
export const step = (from: Snapshot, event: SessionEvent): Step => memo({ from, event })
