/**
 * Owner trust signals inside the character's mailbox (trust/OwnerSignals.ts does the judging): for each owner
 * segment of a `scoped_history` request, in request order, its messages are held against the active facts it
 * could have seen — every fact but the ones this request's own or later segments created — and the events
 * recorded on active or archived rows are replayed; new events are written onto their fact rows
 * (`_speaker_trust_signal_events`) as `fact.updated` journal lines, like every fact edit. Answers, per job,
 * the events a row durably carries, for the trust pool to settle (idempotent by event id).
 */
import { Clock, Effect } from "effect"
import { randomUUID } from "node:crypto"
import { localIso } from "../domain/LocalTime.js"
import type { Fact } from "../facts/Fact.js"
import { FACT_UPDATED, factLine } from "../facts/FactEvents.js"
import type { FactsHost } from "../facts/FactsHost.js"
import type { StoreError } from "../store/DurableFs.js"
import type { ViewDecodeError } from "../store/ViewFile.js"
import { attachEvents, evaluateOwnerSignals, recordedEvents, type OwnerSignalEvent } from "../trust/OwnerSignals.js"
import type { OwnerSignalJob } from "./ScopedCommands.js"

export const recordOwnerSignals = (
  state: FactsHost,
  jobs: ReadonlyArray<OwnerSignalJob>
): Effect.Effect<ReadonlyArray<ReadonlyArray<OwnerSignalEvent>>, StoreError | ViewDecodeError> =>
  Effect.gen(function* () {
    if (jobs.length === 0) return []
    const archived = (yield* state.archive.all).filter((r) => recordedEvents(r).length > 0)
    const out: Array<ReadonlyArray<OwnerSignalEvent>> = []
    for (const job of jobs) {
      const { all } = yield* state.facts.load
      const hidden = new Set(job.hidden)
      const visible = all.filter((f) => !hidden.has(f.id))
      const events = evaluateOwnerSignals(job, visible, [...visible, ...archived])
      if (events.length === 0) {
        out.push([])
        continue
      }
      const { changed, durable } = attachEvents<Fact>(all, archived, events)
      if (changed.length > 0) {
        const ts = localIso(yield* Clock.currentTimeMillis)
        yield* state.journal(changed.map((f) => factLine(randomUUID(), FACT_UPDATED, f, ts)))
      }
      out.push(durable)
    }
    return out
  })
