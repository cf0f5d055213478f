/**
 * Recent-memory compression inside a character actor (neko-compat §4.1), the effects the recent machine asks
 * for: what would be compressed now (more than `recent_compress_threshold_items`, keeping the newest
 * `recent_history_max_items - 1`; its fingerprint key names the snapshot for the dead letter), the model call
 * on that snapshot in a forked fiber whose result comes back to the mailbox tagged with its generation, the
 * splice journaled as `recent.spliced` when the snapshot is still the head, and the hard cap after a failure.
 * When to compress, queue, retry or give up is the machine's (RecentLifecycle.ts interprets it).
 */
import { Clock, Effect, Option, type Scope } from "effect"
import { createHash } from "node:crypto"
import type { Language } from "../domain/Locale.js"
import type { StoredMessage } from "../domain/Message.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import { fingerprint, hardCapDrop, memoItem, sliceToCompress, type Speakers } from "./Compression.js"
import { RecentCompressor } from "./RecentCompressor.js"
import * as RecentMeta from "./RecentMeta.js"
import type { Tunables } from "../Tunables.js"
import type { RecentHost } from "./RecentHost.js"
import { commitSplice } from "./RecentEvents.js"
import type { RecentCommand } from "./RecentCommands.js"

export interface CompactionDeps {
  readonly tunables: Tunables
  readonly scope: Scope.Scope
  readonly speakers: Effect.Effect<Speakers>
  readonly language: (state: RecentHost, items: ReadonlyArray<StoredMessage>) => Language
  /** Sends a command to this actor from a forked fiber. */
  readonly later: (command: RecentCommand) => Effect.Effect<void>
}

/** What a compression started now would replace. */
export interface Pending {
  readonly items: ReadonlyArray<StoredMessage>
  readonly fingerprints: ReadonlyArray<string>
  readonly key: string
}

const keyOf = (fingerprints: ReadonlyArray<string>) =>
  createHash("sha256").update(fingerprints.join("\n")).digest("hex")

export const make = (deps: CompactionDeps) =>
  Effect.gen(function* () {
    const compressor = yield* RecentCompressor
    const tokens = yield* Tokenizer
    const t = deps.tunables
    const keep = t.recent_history_max_items - 1

    /** The snapshot a compression would take now; none when nothing is over the threshold (or degraded). */
    const pending = (state: RecentHost) =>
      Effect.map(state.recent.read, ({ items, degraded }): Pending | undefined => {
        const snapshot = Option.isNone(degraded)
          ? sliceToCompress(items, t.recent_compress_threshold_items, keep)
          : undefined
        if (snapshot === undefined) return undefined
        const fingerprints = snapshot.map(fingerprint)
        return { items: snapshot, fingerprints, key: keyOf(fingerprints) }
      })

    /** Runs the model on `p` in a forked fiber; its outcome is sent back tagged with `generation`. */
    const run = (state: RecentHost, p: Pending, detailed: boolean, generation: number) =>
      Effect.gen(function* () {
        const epoch = state.recentLife.epoch
        const now = yield* Clock.currentTimeMillis
        const stale = RecentMeta.decide(yield* RecentMeta.make(state.dir).anchor, now, t.recent_summary_stale_hours)
        const language = deps.language(state, p.items)
        yield* compressor
          .summarize({ snapshot: p.items, detailed, language, staleHint: stale.hint, names: yield* deps.speakers })
          .pipe(
            Effect.matchEffect({
              onSuccess: (summary) =>
                deps.later({
                  _tag: "Splice",
                  epoch,
                  generation,
                  fingerprints: p.fingerprints,
                  memo: memoItem(summary, language),
                  anchor: stale.writeAnchor
                }),
              onFailure: (e) =>
                Effect.logWarning("recent compression failed; history untouched").pipe(
                  Effect.annotateLogs({ reason: e.reason }),
                  Effect.zipRight(deps.later({ _tag: "CompressionFailed", epoch, generation, key: p.key, detailed }))
                )
            }),
            Effect.forkIn(deps.scope)
          )
      })

    /** Journals the memo over the snapshot it summarises (a no-op when that is no longer the head). */
    const splice = (state: RecentHost, fingerprints: ReadonlyArray<string>, memo: StoredMessage, anchor: boolean) =>
      Effect.gen(function* () {
        yield* commitSplice(state, { reason: "compression", at: 0, fingerprints, items: [memo] })
        if (anchor) yield* Effect.ignoreLogged(RecentMeta.make(state.dir).setAnchor(yield* Clock.currentTimeMillis))
        yield* Effect.logDebug("recent compressed").pipe(Effect.annotateLogs({ replaced: fingerprints.length }))
      })

    /** Drops the oldest items (keeping a memo at the head) while the history is over the hard cap. */
    const hardCap = (state: RecentHost) =>
      Effect.gen(function* () {
        const { items } = yield* state.recent.read
        const drop = hardCapDrop(items, t.recent_hard_cap_tokens, t.recent_history_max_items, tokens)
        if (drop === 0) return
        const memo = items[0]?.type === "system" ? items.slice(0, 1) : []
        const head = items.slice(0, memo.length + drop)
        yield* Effect.logWarning("recent history over the hard cap; oldest items dropped").pipe(
          Effect.annotateLogs({ dropped: drop })
        )
        yield* commitSplice(state, {
          reason: "hard_cap",
          at: 0,
          fingerprints: head.map(fingerprint),
          items: memo
        })
      })

    return { pending, run, splice, hardCap }
  })
