/**
 * Which character commands run on the background lane (runtime/Lane.ts) rather than inside a mailbox batch,
 * and the lane job each becomes.
 */
import type { Effect } from "effect"
import type { Job } from "../runtime/Lane.js"
import type { Command } from "./Commands.js"

const LANE: ReadonlySet<Command["_tag"]> = new Set<Command["_tag"]>([
  "DrainOutbox",
  "SignalTick",
  "IdleMaintenance",
  "ArchiveSweep",
  "EvidenceSweep",
  "RebuttalTick",
  "ResolveCorrections",
  "VectorBackfill",
  "Synthesize",
  "EvaluateReflections",
  "MaintainNow",
  "DueReport",
  "ManualAction",
  "EntryEdit",
  "ImportMarkdown",
  "ResetConfirmedAt"
])

/** True for the commands that run on the lane rather than in the mailbox batch. */
export const inLane = (c: Command): boolean => LANE.has(c._tag)

/** The lane job of a command: coalesced by tag when nobody waits for its answer. */
export const jobOf = (c: Command, run: Effect.Effect<void>, died: (message: string) => Effect.Effect<void>): Job => {
  const answered = ("reply" in c && c.reply !== undefined) || ("done" in c && c.done !== undefined)
  return { key: answered ? undefined : c._tag, run, died }
}
