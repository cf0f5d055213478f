/**
 * The recent-history review inside a character actor, the effects the recent machine asks for: the gate
 * (`reviewGate` over `review_state.json`, the history and the switch), the model call on a snapshot in a
 * forked fiber (correction tier) whose result comes back tagged with its generation, and the commit as a
 * journaled `recent.spliced` over the run it reviewed. Whether a review starts, is cancelled or is committed
 * is the machine's (RecentLifecycle.ts interprets it).
 */
import { Clock, Effect, Option, type Scope } from "effect"
import * as path from "node:path"
import type { Language } from "../domain/Locale.js"
import { messageText, type StoredMessage } from "../domain/Message.js"
import type { LlmError } from "../llm/LlmClient.js"
import { RecentTasks } from "./RecentTasks.js"
import { type ReviewMessage } from "../llm/TaskTypes.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { fingerprint, type Speakers } from "./Compression.js"
import * as R from "./Review.js"
import { AppFiles } from "../store/AppFiles.js"
import * as ViewFile from "../store/ViewFile.js"
import type { Tunables } from "../Tunables.js"
import type { RecentHost } from "./RecentHost.js"
import { commitSplice } from "./RecentEvents.js"
import type { RecentCommand } from "./RecentCommands.js"
import { DerivedClaims } from "../runtime/DerivedClaims.js"

export interface ReviewerDeps {
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: RecentHost, items: ReadonlyArray<StoredMessage>) => Language
  readonly later: (command: RecentCommand) => Effect.Effect<void>
}

const asReviewMessage = (m: StoredMessage): ReviewMessage => ({
  role: m.type === "system" ? "system" : m.type === "ai" ? "assistant" : "user",
  content: messageText(m)
})

export const make = (deps: ReviewerDeps) =>
  Effect.gen(function* () {
    const tasks = yield* RecentTasks
    const tokens = yield* Tokenizer
    const files = yield* AppFiles
    const claims = yield* DerivedClaims
    const t = deps.tunables
    const viewOf = (state: RecentHost) => ViewFile.make(R.ReviewState, path.join(state.dir, "review_state.json"))

    const load = (state: RecentHost) =>
      state.recentLife.reviewState !== undefined
        ? Effect.succeed(state.recentLife.reviewState)
        : viewOf(state).read.pipe(
            Effect.map(Option.getOrElse(() => R.emptyReviewState)),
            Effect.orElseSucceed(() => R.emptyReviewState),
            Effect.tap((rs) => Effect.sync(() => (state.recentLife.reviewState = rs)))
          )

    const save = (state: RecentHost, patch: Partial<R.ReviewState>) =>
      Effect.gen(function* () {
        const next = { ...(yield* load(state)), ...patch }
        state.recentLife.reviewState = next
        yield* Effect.ignoreLogged(state.ensureDir.pipe(Effect.zipRight(viewOf(state).write(next))))
      })

    /** Whether the last gate said "too soon": a review waits for `review_min_interval_seconds`. */
    let tooSoon = false
    /** The review gate's verdict now (`ok`, or why no review may start). */
    const gate = (state: RecentHost) =>
      Effect.gen(function* () {
        tooSoon = false
        if (yield* claims.retired(state.name)) return "retired"
        const rs = yield* load(state)
        const { items, degraded } = yield* state.recent.read
        if (Option.isSome(degraded)) return "degraded"
        const messages = items.map(asReviewMessage)
        const verdict = R.reviewGate(
          {
            state: rs,
            items,
            nowMillis: yield* Clock.currentTimeMillis,
            lastActivityMillis: state.lastWriteAt,
            enabled: (yield* files.core).recent_memory_auto_review,
            inFlight: false,
            contextTokens: tokens.count(messages.map((m) => `${m.role}: ${m.content}`).join("\n\n"))
          },
          t
        )
        tooSoon = verdict === "too_soon"
        if (verdict !== "ok") yield* Effect.logDebug("review skipped").pipe(Effect.annotateLogs({ gate: verdict }))
        return verdict
      })

    /** Starts the review of the current history in a forked fiber; returns that fiber. */
    const start = (state: RecentHost, generation: number) =>
      Effect.gen(function* () {
        const epoch = state.recentLife.epoch
        const { items } = yield* state.recent.read
        const messages = items.map(asReviewMessage)
        yield* save(state, { last_review_ts: yield* Clock.currentTimeMillis })
        const fingerprints = items.map(fingerprint)
        const tail = R.tailOf(items)
        const contextTokens = tokens.count(messages.map((m) => m.content).join("\n"))
        return yield* tasks
          .reviewHistory({ items: messages, language: deps.language(state, items), names: yield* deps.speakers })
          .pipe(
            Effect.matchEffect({
              onSuccess: (out) =>
                deps.later({
                  _tag: "ReviewDone",
                  epoch,
                  generation,
                  fingerprints,
                  tail,
                  corrected: out.corrected,
                  hadMemo: items[0]?.type === "system"
                }),
              onFailure: (e: LlmError) =>
                deps.later({
                  _tag: "ReviewFailed",
                  epoch,
                  generation,
                  reason: e.reason,
                  contextTokens,
                  key: R.tailKey(items)
                })
            }),
            Effect.forkIn(deps.scope)
          )
      })

    const onDone = (state: RecentHost, done: Extract<RecentCommand, { readonly _tag: "ReviewDone" }>) =>
      Effect.gen(function* () {
        const mapped = R.mapReviewed(done.corrected, done.hadMemo, yield* deps.speakers)
        if (mapped === undefined)
          return yield* save(state, { last_reviewed_cutoff_tail: done.tail, review_fail_attempts: 0 })
        const { items } = yield* state.recent.read
        const run = R.locateRun(items, done.fingerprints)
        if (run === undefined || run.capacity === 0)
          return yield* Effect.logInfo("review moot: history changed underneath")
        const replacement = mapped.slice(-Math.min(run.capacity, mapped.length))
        const replaced = items.slice(run.start, run.start + run.capacity).map(fingerprint)
        const ok = yield* commitSplice(state, {
          reason: "review",
          at: run.start,
          fingerprints: replaced,
          items: replacement
        })
        if (ok) {
          yield* save(state, {
            review_clean: true,
            last_reviewed_cutoff_tail: R.tailOf(replacement),
            review_fail_attempts: 0,
            review_fail_fp: null
          })
        }
      })

    const onFailed = (state: RecentHost, failed: Extract<RecentCommand, { readonly _tag: "ReviewFailed" }>) =>
      Effect.gen(function* () {
        const rs = yield* load(state)
        if (failed.reason === "output_limit") {
          const min = rs.review_output_exhaustion_min_context_tokens
          return yield* save(state, {
            review_output_exhaustion_attempts: rs.review_output_exhaustion_attempts + 1,
            review_output_exhaustion_min_context_tokens:
              min === null ? failed.contextTokens : Math.min(min, failed.contextTokens)
          })
        }
        yield* save(state, {
          review_fail_attempts: rs.review_fail_fp === failed.key ? rs.review_fail_attempts + 1 : 1,
          review_fail_fp: failed.key
        })
      })

    /** A human message arrived: the history is no longer known clean. */
    const markDirty = (state: RecentHost) =>
      Effect.gen(function* () {
        if ((yield* load(state)).review_clean) yield* save(state, { review_clean: false })
      })

    return { gate, start, onDone, onFailed, markDirty, waiting: () => tooSoon }
  })
