/**
 * Stage-1 fact extraction inside a character actor (neko-compat §4.2, §4.3 step 1). Powerful memory OFF:
 * every `extract_facts` op extracts from its own turn. ON: a batch loop reads the human messages past the
 * durable window cursor (`cursors.json`: `extracted_until_row_id`, `extracted_until`) when 10 turns have
 * gathered, on first idleness, or 5 minutes after the last check (the tick runs while
 * `evidence_signal_check_enabled`); a failed window is retried on `factIntakeRetry` and skipped once that
 * policy dead-letters it. New facts and source upgrades are
 * journaled (`fact.added`, `fact.updated`) before `facts.json` changes; an exact text hash is never stored
 * twice, so replays and restated facts add nothing.
 */
import { Clock, Duration, Effect, Option, Schema, type Scope } from "effect"
import { randomUUID } from "node:crypto"
import type { Language } from "../domain/Locale.js"
import { localIso } from "../domain/LocalTime.js"
import { contentText, type StoredMessage } from "../domain/Message.js"
import type { Extracted, Utterance } from "./local/LocalFacts.js"
import { FactTasks } from "./FactTasks.js"
import { planFacts } from "./Intake.js"
import type { Fact } from "./Fact.js"
import type { Speakers } from "../domain/Speakers.js"
import { AppFiles } from "../store/AppFiles.js"
import * as Cursors from "../store/Cursors.js"
import type { OutboxOp } from "../store/Outbox.js"
import type { Tunables } from "../Tunables.js"
import { afterFailure, factIntakeRetry } from "../maintenance/policies.js"
import { yieldToIo } from "../runtime/Actor.js"
import type { FactsHost } from "./FactsHost.js"
import { HandlerFailed } from "../runtime/OutboxHandlers.js"
import * as DedupQueue from "./DedupQueue.js"
import * as FactDedup from "./FactDedup.js"
import { factLine, FACT_ADDED, FACT_UPDATED } from "./FactEvents.js"

export interface IntakeDeps<S extends FactsHost> {
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: S, texts: ReadonlyArray<StoredMessage>) => Language
  /** Sends the character the next batch-extraction tick. */
  readonly later: (command: { readonly _tag: "SignalTick" }, delayMillis?: number) => Effect.Effect<void>
  /** Stage 2 for the facts just added (evidence mapping); failures are logged. */
  readonly afterFacts: (state: S, facts: ReadonlyArray<Fact>) => Effect.Effect<unknown, unknown>
}

const noRows: ReadonlyArray<number> = []
const noOps: ReadonlyArray<string> = []
const OnDisk = Schema.Struct({ type: Schema.String, data: Schema.Struct({ content: Schema.Unknown }) })
const decodeMessages = Schema.decodeUnknownOption(Schema.Array(OnDisk))
const decodeMessage = Schema.decodeUnknownOption(Schema.parseJson(OnDisk))

const utterance = (m: {
  readonly type: string
  readonly data: { readonly content: unknown }
}): Option.Option<Utterance> =>
  m.type === "human" || m.type === "ai"
    ? Option.some({ speaker: m.type, text: contentText(m.data.content) })
    : Option.none()

/** Generic in the character's state `S`, which the callbacks receive as it is. */
export const make = <S extends FactsHost>(deps: IntakeDeps<S>) =>
  Effect.gen(function* () {
    const tasks = yield* FactTasks
    const files = yield* AppFiles
    const t = deps.tunables
    const dedup = yield* FactDedup.make({ tunables: t, speakers: deps.speakers })
    const retry = factIntakeRetry(t)
    /** When a failed window may be tried again (while `windowFailures` > 0). */
    let retryAt = 0

    const persist = (
      state: S,
      extracted: ReadonlyArray<{ readonly e: Extracted; readonly rowIds: ReadonlyArray<number> }>,
      processed: boolean
    ) =>
      Effect.gen(function* () {
        const { byHash } = yield* state.facts.load
        const millis = yield* Clock.currentTimeMillis
        const created = localIso(millis)
        const { fresh, upgraded } = planFacts(byHash, extracted, millis, processed)
        const lines = upgraded.map((fact) => factLine(randomUUID(), FACT_UPDATED, fact, created))
        const { keep, pairs } = yield* dedup.detect(state, fresh)
        lines.push(...keep.map((fact) => factLine(randomUUID(), FACT_ADDED, fact, created)))
        if (lines.length === 0) return 0
        yield* state.journal(lines)
        yield* Effect.ignoreLogged(dedup.index(state, keep))
        yield* Effect.ignoreLogged(DedupQueue.make(state.dir).push(pairs))
        yield* Effect.ignoreLogged(deps.afterFacts(state, keep))
        return keep.length
      })

    /** Extracts from one message group; the facts come with the rows they came from. */
    const extractGroup = (
      state: S,
      group: { readonly messages: ReadonlyArray<StoredMessage>; readonly rowIds: ReadonlyArray<number> },
      known: ReadonlyArray<string> | undefined
    ) =>
      Effect.gen(function* () {
        const utterances = group.messages.flatMap((m) => Option.toArray(utterance(m)))
        if (utterances.length === 0) return []
        const extracted = yield* tasks.extractFacts({
          utterances,
          language: deps.language(state, group.messages),
          names: yield* deps.speakers,
          ...(known !== undefined ? { known } : {})
        })
        yield* yieldToIo
        return extracted.map((e) => ({ e, rowIds: group.rowIds }))
      })

    /** Extracts from several message groups, each with the rows it came from, and persists once. */
    const extractGroups = (
      state: S,
      groups: ReadonlyArray<{
        readonly messages: ReadonlyArray<StoredMessage>
        readonly rowIds: ReadonlyArray<number>
      }>,
      options: { readonly known?: ReadonlyArray<string>; readonly processed?: boolean } = {}
    ) =>
      Effect.gen(function* () {
        const found = yield* Effect.forEach(groups, (g) => extractGroup(state, g, options.known))
        return yield* persist(state, found.flat(), options.processed ?? false)
      })

    /** Rows as extraction groups: one per message for the local provider, chunks of 20 for a model. */
    const groupsOf = (rows: ReadonlyArray<{ readonly row: number; readonly m: StoredMessage }>) => {
      const size = tasks.extractsLocally() ? 1 : 20
      const out: Array<{ messages: Array<StoredMessage>; rowIds: Array<number> }> = []
      for (let i = 0; i < rows.length; i += size) {
        const chunk = rows.slice(i, i + size)
        out.push({ messages: chunk.map((r) => r.m), rowIds: chunk.map((r) => r.row) })
      }
      return out
    }

    const decodedRows = (
      rows: ReadonlyArray<{ readonly id: number; readonly message: string }>,
      roles: ReadonlyArray<string>
    ) =>
      rows.flatMap((r) =>
        Option.toArray(Option.filter(decodeMessage(r.message), (m) => roles.includes(m.type))).map((m) => ({
          row: r.id,
          m: { type: m.type, data: { content: m.data.content } }
        }))
      )

    /** Path B: human and AI messages since the last B window, with the recently known facts as context. */
    const runPathB = (state: S, upTo: number) =>
      Effect.gen(function* () {
        const ti = yield* state.openTimeIndex(false)
        if (Option.isNone(ti)) return 0
        const from = yield* cursorsOf(state)
          .get("extracted_b_until_row_id")
          .pipe(Effect.map(Option.match({ onNone: () => 0, onSome: (v) => Number(v) || 0 })))
        const rows = (yield* ti.value.rowsAfter(from, t.max_ai_aware_window_msgs)).filter((r) => r.id <= upTo)
        const messages = decodedRows(rows, ["human", "ai"])
        const firstHuman = messages.findIndex((r) => r.m.type === "human")
        const lastHuman = messages.map((r) => r.m.type).lastIndexOf("human")
        const span = firstHuman < 0 ? [] : messages.slice(firstHuman, lastHuman + 1)
        const known = [...(yield* state.facts.load).facts]
          .sort((a, b) => b.importance - a.importance)
          .slice(0, t.max_known_pool_facts)
          .map((f) => f.text)
        const added = span.length === 0 ? 0 : yield* extractGroups(state, groupsOf(span), { known, processed: true })
        yield* cursorsOf(state).set({ extracted_b_until_row_id: String(upTo) })
        return added
      })

    const cursorsOf = (state: S) => Cursors.make(state.dir)

    const readCursor = (state: S) =>
      cursorsOf(state)
        .get("extracted_until_row_id")
        .pipe(
          Effect.map(Option.match({ onNone: () => 0, onSome: (v) => Number(v) || 0 })),
          Effect.orElseSucceed(() => 0)
        )

    const pendingRows = (state: S, limit: number) =>
      Effect.gen(function* () {
        const ti = yield* state.openTimeIndex(false)
        if (Option.isNone(ti)) return { cursor: 0, rows: [] }
        const cursor = yield* readCursor(state)
        return { cursor, rows: yield* ti.value.rowsAfter(cursor, limit) }
      })

    const humanPending = (state: S) =>
      Effect.gen(function* () {
        const ti = yield* state.openTimeIndex(false)
        return Option.isNone(ti) ? 0 : yield* ti.value.humanAfter(yield* readCursor(state))
      })

    const advance = (state: S, rowId: number, timestamp: string) =>
      state.ensureDir.pipe(
        Effect.zipRight(
          cursorsOf(state).set({ extracted_until_row_id: String(rowId), extracted_until: timestamp.replace(" ", "T") })
        )
      )

    /** Path A: every human message past the cursor; every Nth success also runs path B. */
    const runWindow = (state: S) =>
      Effect.gen(function* () {
        const { rows } = yield* pendingRows(state, t.max_ai_aware_window_msgs)
        const last = rows[rows.length - 1]
        if (last === undefined) return 0
        const added = yield* extractGroups(state, groupsOf(decodedRows(rows, ["human"])))
        yield* advance(state, last.id, last.timestamp)
        state.intake.turnsSince = yield* humanPending(state)
        state.intake.lastCheckAt = yield* Clock.currentTimeMillis
        state.intake.windowFailures = 0
        state.intake.pathATicks++
        const pathB =
          state.intake.pathATicks % t.evidence_ai_aware_every_n_a_ticks === 0
            ? yield* Effect.orElseSucceed(runPathB(state, last.id), () => 0)
            : 0
        return added + pathB
      })

    const tick = (state: S) =>
      Effect.gen(function* () {
        state.intake.tickScheduled = false
        if (!(yield* files.core).powerful_memory_enabled || state.intake.turnsSince === 0) return
        const now = yield* Clock.currentTimeMillis
        const due =
          state.intake.turnsSince >= t.evidence_signal_check_every_n_turns ||
          (state.intake.lastCheckAt === undefined && now - state.lastWriteAt >= t.idle_threshold_seconds * 1000) ||
          (state.intake.lastCheckAt !== undefined &&
            now - state.intake.lastCheckAt >= t.evidence_signal_check_idle_minutes * 60_000)
        if (due && (state.intake.windowFailures === 0 || now >= retryAt)) {
          const result = yield* Effect.either(runWindow(state))
          if (result._tag === "Left") {
            state.intake.windowFailures++
            yield* Effect.logWarning("fact extraction failed; window kept").pipe(
              Effect.annotateLogs({ attempts: state.intake.windowFailures })
            )
            const next = yield* afterFailure(retry, state.intake.windowFailures)
            if (next._tag === "Retry") retryAt = now + Duration.toMillis(next.delay)
            else {
              const { rows } = yield* Effect.orElseSucceed(pendingRows(state, 100_000), () => ({ cursor: 0, rows: [] }))
              const last = rows[rows.length - 1]
              if (last) yield* Effect.ignoreLogged(advance(state, last.id, last.timestamp))
              state.intake.turnsSince = 0
              state.intake.windowFailures = 0
            }
          }
        }
        yield* scheduleTick(state)
      })

    /** The next tick: after the signal interval, or when a failed window's retry is due. */
    const scheduleTick = (state: S) =>
      state.intake.tickScheduled || state.intake.turnsSince === 0 || !t.evidence_signal_check_enabled
        ? Effect.void
        : Effect.gen(function* () {
            state.intake.tickScheduled = true
            const interval = t.evidence_signal_check_interval_seconds * 1000
            const wait = state.intake.windowFailures > 0 ? retryAt - (yield* Clock.currentTimeMillis) : interval
            yield* deps.later({ _tag: "SignalTick" }, Math.max(0, wait))
          })

    /**
     * `extract_facts` ops: per-turn extraction, persisted once for all (OFF), or gathered turns (ON). Answers the
     * ids of the ops whose extraction failed; fails when all of them did.
     */
    const onExtractOps = (state: S, ops: ReadonlyArray<OutboxOp>) =>
      Effect.gen(function* () {
        const groups = ops.map((op) => ({
          op,
          messages: Option.getOrElse(decodeMessages(op.payload["messages"]), () => [])
        }))
        if ((yield* files.core).powerful_memory_enabled) {
          state.intake.turnsSince += groups.filter((g) => g.messages.some((m) => m.type === "human")).length
          yield* scheduleTick(state)
          return noOps
        }
        const ti = yield* state.openTimeIndex(false)
        const withRows = yield* Effect.forEach(groups, (g) =>
          Option.match(ti, {
            onNone: () => Effect.succeed({ opId: g.op.opId, messages: g.messages, rowIds: noRows }),
            onSome: (index) =>
              Effect.map(index.rowIdsOf(g.op.opId), (rowIds) => ({ opId: g.op.opId, messages: g.messages, rowIds }))
          })
        )
        // Each turn on its own: one failed model call fails only its op, the others land.
        const results = yield* Effect.forEach(withRows, (g) => Effect.either(extractGroup(state, g, undefined)))
        const landed = withRows.filter((_, i) => results[i]?._tag === "Right")
        const failed = withRows.filter((_, i) => results[i]?._tag !== "Right").map((g) => g.opId)
        const firstFailure = results.find((r) => r._tag === "Left")
        if (landed.length === 0 && firstFailure?._tag === "Left") return yield* Effect.fail(firstFailure.left)
        yield* persist(
          state,
          results.flatMap((r) => (r._tag === "Right" ? r.right : [])),
          false
        )
        const last = Math.max(0, ...landed.flatMap((g) => g.rowIds))
        if (last > (yield* readCursor(state))) yield* advance(state, last, localIso(yield* Clock.currentTimeMillis))
        return failed
      }).pipe(Effect.mapError((e) => new HandlerFailed({ type: "extract_facts", message: e.message })))

    /** After a load: turns past the cursor count as gathered, so a restart never skips them. */
    const resume = (state: S) =>
      Effect.gen(function* () {
        state.intake.turnsSince = yield* humanPending(state)
        yield* scheduleTick(state)
      }).pipe(
        Effect.catchAll((e) =>
          Effect.logWarning("extraction cursor unreadable").pipe(Effect.annotateLogs({ error: e._tag }))
        )
      )

    const { arbitrate, sweep } = dedup
    return { onExtractOps, tick, runWindow, resume, scheduleTick, arbitrate, sweep, dedup }
  })

export type Intake<S extends FactsHost> = Effect.Effect.Success<ReturnType<typeof make<S>>>
