/**
 * Replays one LoCoMo conversation into a memory runtime as a companion would have lived it. Speaker A is
 * the master (`user`), speaker B the character (`assistant`): kioku extracts facts about the master from
 * every user turn and about the character only from its AI-aware pass, so A, who opens each conversation,
 * takes the master's seat. Each turn is one `/cache` call with the host clock at the session's start plus
 * one second per turn; after each session, maintenance runs until a pass changes nothing, with the clock
 * still at the session's last turn, so facts are dated (and relative times resolved) within their session.
 */
import { Effect } from "effect"
import type { HostClock, MaintenanceReport, MemoryRuntime } from "../lib.js"
import type { Conversation, Turn } from "./Locomo.js"
import { EvalError } from "./Provenance.js"

export interface IngestedMessage {
  readonly diaId: string
  readonly content: string
}

export interface IngestTotals {
  readonly turns: number
  readonly factsAdded: number
  readonly reflectionsAdded: number
  readonly maintenancePasses: number
}

/** The stored content of a turn: its text, and its image caption when it shared one. */
export const turnContent = (turn: Turn): string =>
  turn.caption === undefined || turn.caption.trim() === "" ? turn.text : `${turn.text} [image: ${turn.caption}]`

export const roleOf = (conversation: Conversation, speaker: string): "user" | "assistant" =>
  speaker === conversation.speakerA ? "user" : "assistant"

export const maxMaintenancePasses = 10

const call = <A>(what: string, f: () => Promise<A>) =>
  Effect.tryPromise({
    try: f,
    catch: (e) => new EvalError({ message: `${what}: ${e instanceof Error ? e.message : String(e)}` })
  })

const quiet = (r: MaintenanceReport) =>
  r.outboxOps === 0 &&
  r.factsAdded === 0 &&
  r.factsMerged === 0 &&
  r.reflectionsAdded === 0 &&
  r.reflectionsChanged === 0 &&
  r.evidenceSwept === 0 &&
  !r.compressed

/** Runs `maintainNow` until a pass changes nothing (at most `maxMaintenancePasses`), then awaits background work. */
export const maintainUntilQuiet = (runtime: MemoryRuntime, character: string) =>
  Effect.gen(function* () {
    const reports: Array<MaintenanceReport> = []
    for (let pass = 0; pass < maxMaintenancePasses; pass++) {
      const report = yield* call("maintainNow", () => runtime.maintainNow(character))
      reports.push(report)
      if (quiet(report)) break
    }
    yield* call("awaitBackground", () => runtime.awaitBackground(character))
    return reports
  })

export const ingestConversation = (options: {
  readonly runtime: MemoryRuntime
  readonly clock: HostClock
  readonly character: string
  readonly conversation: Conversation
  readonly onSession?: (index: number, turns: number) => Effect.Effect<void>
}) =>
  Effect.gen(function* () {
    const { runtime, clock, character, conversation } = options
    const messages: Array<IngestedMessage> = []
    let factsAdded = 0
    let reflectionsAdded = 0
    let maintenancePasses = 0
    for (const session of conversation.sessions) {
      for (const [j, turn] of session.turns.entries()) {
        clock.setTime(session.startMillis + j * 1000)
        const content = turnContent(turn)
        yield* call(`cache ${turn.diaId}`, () =>
          runtime.cache(character, { messages: [{ role: roleOf(conversation, turn.speaker), content }] })
        )
        messages.push({ diaId: turn.diaId, content })
      }
      const reports = yield* maintainUntilQuiet(runtime, character)
      factsAdded += reports.reduce((n, r) => n + r.factsAdded, 0)
      reflectionsAdded += reports.reduce((n, r) => n + r.reflectionsAdded, 0)
      maintenancePasses += reports.length
      if (options.onSession) yield* options.onSession(session.index, session.turns.length)
    }
    const totals: IngestTotals = { turns: messages.length, factsAdded, reflectionsAdded, maintenancePasses }
    return { messages, totals }
  })
