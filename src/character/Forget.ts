/**
 * Forgetting facts so that their text is gone, not just unreferenced. Inside the character's mailbox: the
 * forget is journaled (`fact.forgotten`, ids and reason only) and applied (out of facts.json and the archive
 * shards), then completed: every earlier journal line carrying the forgotten text becomes a tombstone (one
 * atomic rewrite of `events.ndjson`), the vector rows, dedup pairs and near-duplicate index rows
 * (`facts_fts_v2`) go, and the checkpoint moves the sentinel
 * past the forget. A crash before that checkpoint leaves the forget past the sentinel, so the replay at load
 * applies it again and `completeAtLoad` redoes the completion; every step is idempotent. Conversation turns
 * (time_indexed.db, recent.json, the outbox's extraction ops) are not part of a fact and stay.
 */
import { Clock, Effect, Either, Option } from "effect"
import { randomUUID } from "node:crypto"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { localIso } from "../domain/LocalTime.js"
import * as DedupQueue from "../facts/DedupQueue.js"
import { decodeForgotten, FACT_FORGOTTEN, factForgottenLine } from "../facts/FactEvents.js"
import { carried, lineage, redactLine } from "../facts/FactRedaction.js"
import type { EventLine } from "../store/EventLog.js"
import { StoreError } from "../store/DurableFs.js"
import { redactJournal } from "../store/Tombstone.js"
import { removeIndex } from "../recall/index/RecallIndexDb.js"
import { vectorStoreOf } from "../vectors/VectorBackfill.js"
import type { VectorCache } from "../vectors/VectorsHost.js"
import { VECTORS_FILE, type VectorKind } from "../vectors/VectorStore.js"
import { timeIndexOf, type CharacterViews } from "./Apply.js"

export type ForgetHost = CharacterViews & VectorCache

/** Journals a forget; a view that could not be written fails it, so the caller retries. */
export const journalForget = (state: ForgetHost, line: EventLine) =>
  Effect.flatMap(state.journal([line]), (ok) =>
    ok ? Effect.void : new StoreError({ op: "forget", file: state.dir, message: "views not written; retry" })
  )

/**
 * The part every forget shares once it is journaled: the journal lines `redact` picks become tombstones (a
 * torn line holding one of `texts` is dropped), `recall_index.db` is deleted and the vector rows of `ids` under
 * `kind` go; the number of lines rewritten. The caller removes its own side data, then checkpoints.
 */
export const erase = (
  state: ForgetHost,
  kind: VectorKind,
  ids: ReadonlySet<string>,
  redact: (line: EventLine) => Option.Option<EventLine>,
  texts: ReadonlyArray<string>
) =>
  Effect.gen(function* () {
    const rewritten = yield* redactJournal(state.events, redact, texts)
    // The derived recall index holds texts and terms: deleted whole (the next query writes it again).
    yield* Effect.try({
      try: () => removeIndex(state.dir),
      catch: (e) => new StoreError({ op: "forget", file: state.dir, message: String(e) })
    })
    if (existsSync(path.join(state.dir, VECTORS_FILE))) {
      yield* Effect.flatMap(vectorStoreOf(state), (store) => store.forget(kind, [...ids]))
    }
    return rewritten
  })

/** Everything after the journaled forget of `ids`: journal tombstones, vector rows, dedup pairs, checkpoint. */
const complete = (state: ForgetHost, ids: ReadonlySet<string>, reason: string, at: string, texts: Array<string>) =>
  Effect.gen(function* () {
    const all = [...texts, ...carried(yield* state.events.all, ids).map((f) => f.text)]
    const rewritten = yield* erase(state, "fact", ids, redactLine(ids, reason, at), all)
    yield* DedupQueue.make(state.dir)
      .forget(ids)
      .pipe(Effect.mapError((e) => new StoreError({ op: "forget", file: state.dir, message: e.message })))
    const ti = yield* timeIndexOf(state, false)
    if (Option.isSome(ti)) yield* ti.value.unindexFacts([...ids])
    yield* state.checkpoint
    yield* Effect.logInfo("facts forgotten").pipe(Effect.annotateLogs({ facts: ids.size, lines: rewritten }))
  })

/** Forgets `id` and the facts merged into it; the caller has checked that it exists (or was forgotten). */
export const forgetFact = (state: ForgetHost, id: string, reason: string) => forgetFacts(state, [id], reason)

/** Forgets the facts of `roots` and the facts merged into them, in one journaled forget. */
export const forgetFacts = (state: ForgetHost, roots: ReadonlyArray<string>, reason: string) =>
  Effect.gen(function* () {
    const ids = lineage(yield* state.events.all, roots)
    const records = [
      ...(yield* state.facts.load).all,
      ...(yield* state.archive.all.pipe(Effect.orElseSucceed(() => [])))
    ].filter((f) => ids.has(f.id))
    const at = localIso(yield* Clock.currentTimeMillis)
    yield* journalForget(state, factForgottenLine(randomUUID(), { fact_ids: [...ids], reason }, at))
    yield* complete(
      state,
      ids,
      reason,
      at,
      records.map((f) => f.text)
    )
  })

/** Whether the journal holds a forget of `id` (a second forget completes again instead of answering 404). */
export const wasForgotten = (lines: ReadonlyArray<EventLine>, id: string) =>
  forgets(lines).some((p) => p.fact_ids.includes(id))

const forgets = (lines: ReadonlyArray<EventLine>) =>
  lines.flatMap((l) =>
    l.type === FACT_FORGOTTEN ? Either.getRight(decodeForgotten(l.payload)).pipe(Option.toArray) : []
  )

/** Completes again the forgets a replay applied (they were past the sentinel: a crash came before the checkpoint). */
export const completeAtLoad = (state: ForgetHost, replayed: ReadonlyArray<EventLine>) =>
  Effect.forEach(
    forgets(replayed),
    (p) =>
      Effect.flatMap(Clock.currentTimeMillis, (ms) => complete(state, new Set(p.fact_ids), p.reason, localIso(ms), [])),
    { discard: true }
  )

/** A repeated forget of `id`: the completion again (idempotent), nothing journaled. */
export const forgetAgain = (state: ForgetHost, id: string, reason: string) =>
  Effect.gen(function* () {
    const ids = lineage(yield* state.events.all, [id])
    yield* complete(state, ids, reason, localIso(yield* Clock.currentTimeMillis), [])
  })
