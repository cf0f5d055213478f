/**
 * Recent-memory compression inside a character actor (neko-compat §4.1): the trigger (more than
 * `recent_compress_threshold_items`, keeping the newest `recent_history_max_items - 1`), the model call on a
 * snapshot in a forked fiber, the splice journaled as `recent.spliced` when the snapshot is still the head,
 * backup retries of a failed compression with the hard cap on every failure (after the liveness limit the
 * snapshot is dead-lettered until the self-heal interval passes), and idle compression.
 */
import { Clock, Effect, Option, type Scope } from "effect"
import { createHash } from "node:crypto"
import type { CharacterName } from "../domain/CharacterName.js"
import type { Language } from "../domain/Locale.js"
import type { StoredMessage } from "../domain/Message.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { fingerprint, hardCapDrop, memoItem, sliceToCompress, type Speakers } from "../memory/recent/Compression.js"
import { RecentCompressor } from "../memory/recent/RecentCompressor.js"
import * as RecentMeta from "../memory/recent/RecentMeta.js"
import { backupDelay } from "../maintenance/policies.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { Command } from "./Commands.js"
import type { SplicePayload } from "./TurnEvent.js"

export interface CompactionDeps {
  readonly name: CharacterName
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: State.CharacterState, items: ReadonlyArray<StoredMessage>) => Language
  /** Sends a command to this actor from a forked fiber, after an optional delay. */
  readonly later: (command: Command, delayMillis?: number) => Effect.Effect<void>
}

const keyOf = (fingerprints: ReadonlyArray<string>) =>
  createHash("sha256").update(fingerprints.join("\n")).digest("hex")

export const make = (deps: CompactionDeps) =>
  Effect.gen(function* () {
    const compressor = yield* RecentCompressor
    const tokens = yield* Tokenizer
    const t = deps.tunables
    const keep = t.recent_history_max_items - 1

    const commitSplice = (state: State.CharacterState, payload: SplicePayload) => State.commitSplice(state, payload)

    const hardCap = (state: State.CharacterState) =>
      Effect.gen(function* () {
        const { items } = yield* state.recent.read
        const drop = hardCapDrop(items, t.recent_hard_cap_tokens, t.recent_history_max_items, tokens)
        if (drop === 0) return
        const memo = items[0]?.type === "system" ? items.slice(0, 1) : []
        const head = items.slice(0, memo.length + drop)
        yield* Effect.logWarning("recent history over the hard cap; oldest items dropped").pipe(
          Effect.annotateLogs({ dropped: drop })
        )
        yield* commitSplice(state, { reason: "hard_cap", at: 0, fingerprints: head.map(fingerprint), items: memo })
      })

    /** Starts a compression of the current history if it is over the threshold. */
    const start = (state: State.CharacterState, detailed: boolean, settle: boolean) =>
      Effect.gen(function* () {
        const { items, degraded } = yield* state.recent.read
        const snapshot = Option.isNone(degraded)
          ? sliceToCompress(items, t.recent_compress_threshold_items, keep)
          : undefined
        const fingerprints = snapshot?.map(fingerprint) ?? []
        const now = yield* Clock.currentTimeMillis
        const dead =
          state.backup !== undefined &&
          state.backup.key === keyOf(fingerprints) &&
          state.backup.attempts >= t.memory_liveness_max_attempts &&
          now - state.backup.at < t.memory_dead_letter_self_heal_seconds * 1000
        if (snapshot === undefined || dead || (state.compressing && !settle)) {
          if (settle) yield* deps.later({ _tag: "SettleDone" })
          return
        }
        state.compressing = true
        const meta = RecentMeta.make(state.dir)
        const stale = RecentMeta.decide(yield* meta.anchor, now, t.recent_summary_stale_hours)
        const language = deps.language(state, snapshot)
        yield* compressor
          .summarize({ snapshot, detailed, language, staleHint: stale.hint, names: yield* deps.speakers })
          .pipe(
            Effect.matchEffect({
              onSuccess: (summary) =>
                deps.later({
                  _tag: "Splice",
                  fingerprints,
                  memo: memoItem(summary, language),
                  anchor: stale.writeAnchor
                }),
              onFailure: (e) =>
                Effect.logWarning("recent compression failed; history untouched").pipe(
                  Effect.annotateLogs({ reason: e.reason }),
                  Effect.zipRight(deps.later({ _tag: "CompressionFailed", fingerprints, detailed }))
                )
            }),
            Effect.zipRight(settle ? deps.later({ _tag: "SettleDone" }) : Effect.void),
            Effect.forkIn(deps.scope)
          )
      })

    const finished = (state: State.CharacterState) =>
      Effect.suspend(() => {
        state.compressing = false
        const waiting = state.compressionWaiters
        state.compressionWaiters = []
        return Effect.all(waiting, { discard: true })
      })

    /** Answers `reply` once no compression is in flight. */
    const whenDone = (state: State.CharacterState, reply: Effect.Effect<void>) =>
      state.compressing ? Effect.sync(() => void state.compressionWaiters.push(reply)) : reply

    const onSplice = (
      state: State.CharacterState,
      fingerprints: ReadonlyArray<string>,
      memo: StoredMessage,
      anchor: boolean
    ) =>
      Effect.gen(function* () {
        if (state.backup?.key === keyOf(fingerprints)) state.backup = undefined
        yield* commitSplice(state, { reason: "compression", at: 0, fingerprints, items: [memo] })
        if (anchor) yield* Effect.ignoreLogged(RecentMeta.make(state.dir).setAnchor(yield* Clock.currentTimeMillis))
        yield* Effect.logDebug("recent compressed").pipe(Effect.annotateLogs({ replaced: fingerprints.length }))
        yield* finished(state)
      })

    const onFailed = (state: State.CharacterState, fingerprints: ReadonlyArray<string>, detailed: boolean) =>
      Effect.gen(function* () {
        const key = keyOf(fingerprints)
        const attempts = state.backup?.key === key ? state.backup.attempts + 1 : 1
        state.backup = { key, attempts, at: yield* Clock.currentTimeMillis }
        yield* hardCap(state)
        yield* finished(state)
        if (attempts >= t.memory_liveness_max_attempts) {
          yield* Effect.logWarning("recent compression dead-lettered for this snapshot").pipe(
            Effect.annotateLogs({ attempts })
          )
          return yield* deps.later({ _tag: "CompressRetry", detailed }, t.memory_dead_letter_self_heal_seconds * 1000)
        }
        yield* deps.later({ _tag: "CompressRetry", detailed }, backupDelay(attempts))
      })

    /** Compresses when the character has been idle long enough; true when it was idle. */
    const onIdleCheck = (state: State.CharacterState) =>
      Effect.gen(function* () {
        state.idleCheckScheduled = false
        const idleFor = (yield* Clock.currentTimeMillis) - state.lastWriteAt
        if (idleFor < t.idle_threshold_seconds * 1000) {
          yield* scheduleIdleCheck(state)
          return false
        }
        yield* start(state, true, false)
        return true
      })

    const scheduleIdleCheck = (state: State.CharacterState) =>
      state.idleCheckScheduled
        ? Effect.void
        : Effect.sync(() => (state.idleCheckScheduled = true)).pipe(
            Effect.zipRight(deps.later({ _tag: "IdleCheck" }, t.idle_check_interval_seconds * 1000))
          )

    return { start, onSplice, onFailed, onIdleCheck, scheduleIdleCheck, whenDone }
  })
