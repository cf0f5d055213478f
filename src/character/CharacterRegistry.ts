/**
 * The registry of live character actors: one actor per `lanlan_name`, created on first use by an `RcMap`
 * and held between requests by a pin (Pins.ts: a request on a live actor takes no reference of its own),
 * released after `actor_idle_ttl_seconds` without users, or sooner when more than `actor_max_live` are
 * live or their estimated memory (Footprint.ts) passes `actor_max_live_mb` (the least recently used ones no
 * request is using close first, never the one just used; a later request reopens them); a new
 * actor for a name waits until the evicted one has closed, so there is never more than one writer per
 * character. Every access goes through here.
 * `exclusive` stops the actors of some names and keeps them stopped while it works on their directories:
 * new requests for those names wait, the ones in flight are given `exclusiveWait` to finish (else
 * `CharacterBusy`), then the idle actors are closed and their handover awaited.
 */
import type { QueryRequest, QueryResult } from "../recall/RecallTypes.js"
import { Cause, Clock, Context, Deferred, Duration, Effect, Layer, Option, RcMap, Schema, Scope } from "effect"
import * as Pins from "../runtime/Pins.js"
import * as path from "node:path"
import type { CharacterName } from "../domain/CharacterName.js"
import { AppFiles } from "../store/AppFiles.js"
import type { StoreError } from "../store/DurableFs.js"
import { KiokuConfig } from "../Config.js"
import type { ActorDefect, Health } from "../runtime/Actor.js"
import * as CharacterActor from "./CharacterActor.js"
import * as Admission from "../runtime/Admission.js"
import * as Handover from "../runtime/Handover.js"
import type { Command, ReadLanguage } from "./Commands.js"
import { OutboxHandlers } from "../runtime/OutboxHandlers.js"
import { Placement } from "../runtime/Placement.js"
import { DerivedClaims } from "../runtime/DerivedClaims.js"
import { Tokenizer } from "../llm/Tokenizer.js"
import type { MemoryTasks } from "./MemoryTasks.js"
import { ChineseScript } from "../domain/ChineseScript.js"
import { RecentCompressor } from "../recent/RecentCompressor.js"
import type { DueWork } from "../maintenance/DueWork.js"
import { estimateBytes } from "../runtime/Footprint.js"
import { startWriterThreads } from "../store/WriterThread.js"

/** An actor kept busy (a request in flight) did not close within the wait of `exclusive`. */
export class CharacterBusy extends Schema.TaggedError<CharacterBusy>()("CharacterBusy", { name: Schema.String }) {}

const exclusiveWait = Duration.seconds(10)
/** A live actor's memory estimate is taken again after a use at most this often (its files grow with writes). */
const footprintRefreshMillis = 30_000

export class CharacterRegistry extends Context.Tag("app/actor/CharacterRegistry")<
  CharacterRegistry,
  {
    readonly ask: <A, E>(
      name: CharacterName,
      build: (reply: Deferred.Deferred<A, E | ActorDefect>) => Command
    ) => Effect.Effect<A, E | ActorDefect | StoreError>
    /** `/query_memory` beside the character's mailbox (CharacterActor.ts). */
    readonly query: (name: CharacterName, input: QueryRequest) => Effect.Effect<QueryResult, ActorDefect | StoreError>
    /** `/new_dialog`, beside the mailbox when rendering it writes nothing (BesideReads.ts). */
    readonly newDialog: (name: CharacterName, lang: ReadLanguage) => Effect.Effect<string, ActorDefect | StoreError>
    /** Sends a command that expects no reply. */
    readonly tell: (name: CharacterName, command: Command) => Effect.Effect<void, StoreError | ActorDefect>
    /** Touches the character so its actor loads (and reconciles) now. */
    readonly warm: (name: CharacterName) => Effect.Effect<void, StoreError | ActorDefect>
    readonly active: Effect.Effect<ReadonlyArray<CharacterName>>
    /** Closes the character's actor now unless a request is using it (maintenance closes what it opened). */
    readonly close: (name: CharacterName) => Effect.Effect<void>
    /** The supervision state of a live actor; none when the character is not loaded (it is not woken). */
    readonly health: (name: CharacterName) => Effect.Effect<Option.Option<Health>>
    /** Runs `work` with the actors of `names` closed and no new one started until it ends. */
    readonly exclusive: <A, E, R>(
      names: ReadonlyArray<CharacterName>,
      work: Effect.Effect<A, E, R>
    ) => Effect.Effect<A, E | CharacterBusy, R>
  }
>() {
  static readonly layer = Layer.scoped(
    CharacterRegistry,
    Effect.gen(function* () {
      const settings = yield* KiokuConfig
      yield* Effect.sync(startWriterThreads)
      // Without the layer's own Scope: each actor must live in its RcMap entry's scope, or closing the entry
      // (idle eviction, `exclusive`) would leave the actor running until shutdown.
      const context = Context.omit(Scope.Scope)(
        yield* Effect.context<
          | KiokuConfig
          | AppFiles
          | OutboxHandlers
          | RecentCompressor
          | Tokenizer
          | MemoryTasks
          | ChineseScript
          | DerivedClaims
          | DueWork
        >()
      )
      const placement = yield* Placement
      const handover = Handover.make<CharacterName>()
      const admission = Admission.make<CharacterName>()
      /** Each live actor's estimated memory and when it was taken, and their sum. */
      const footprints = new Map<CharacterName, { readonly bytes: number; readonly at: number }>()
      let footprintTotal = 0
      const budget = settings.tunables.actor_max_live_mb * 1024 * 1024
      const measure = (name: CharacterName) =>
        Effect.map(Clock.currentTimeMillis, (at) => {
          const bytes = estimateBytes(path.join(settings.dataDir, name))
          footprintTotal += bytes - (footprints.get(name)?.bytes ?? 0)
          footprints.set(name, { bytes, at })
        })
      const unmeasure = (name: CharacterName) => {
        footprintTotal -= footprints.get(name)?.bytes ?? 0
        footprints.delete(name)
      }
      // No idle time to live of its own: an entry closes once its pin (below) and every request let go.
      const actors = yield* RcMap.make({
        lookup: (name: CharacterName) =>
          handover.guard(
            name,
            placement.claim(name).pipe(
              Effect.zipRight(CharacterActor.make(name)),
              Effect.tap(() => measure(name)),
              Effect.provide(context)
            )
          )
      })
      /** Names in order of last use (oldest first) and the requests each has in flight. */
      const lastUse = new Set<CharacterName>()
      const inFlight = new Map<CharacterName, number>()
      const idle = (name: CharacterName) => (inFlight.get(name) ?? 0) === 0
      const pins = yield* Pins.make<CharacterName, Effect.Effect.Success<ReturnType<typeof get>>>({
        ttlMillis: settings.tunables.actor_idle_ttl_seconds * 1000,
        idle
      })
      /** Closes the character's actor (once no request holds it). */
      const drop = (name: CharacterName) => Effect.zipRight(pins.release(name), RcMap.invalidate(actors, name))
      const evicting = yield* Effect.makeSemaphore(1)
      /**
       * Closes the least recently used idle actors while more than `actor_max_live` are live or their estimate is
       * over `actor_max_live_mb`; the one used last stays, even when it alone is over the budget.
       */
      const evictOverCap = evicting.withPermits(1)(
        Effect.gen(function* () {
          const live = new Set(yield* RcMap.keys(actors))
          let excess = live.size - settings.tunables.actor_max_live
          const newest = [...lastUse].at(-1)
          for (const name of [...lastUse]) {
            if (excess <= 0 && footprintTotal <= budget) return
            if (!live.has(name)) {
              lastUse.delete(name)
              unmeasure(name)
            } else if (idle(name) && name !== newest) {
              lastUse.delete(name)
              unmeasure(name)
              excess--
              yield* drop(name)
            }
          }
        })
      )
      /**
       * Whether more than the cap are live or over the budget. Every live actor was entered here, so `lastUse`
       * holds them all: while both are within bounds nothing is listed, and a listing drops the names closed
       * meanwhile (by the idle time to live) from both.
       */
      const overCap = Effect.suspend(() => {
        const cap = settings.tunables.actor_max_live
        if (lastUse.size <= cap && footprintTotal <= budget) return Effect.succeed(false)
        return Effect.map(RcMap.keys(actors), (keys) => {
          const live = new Set(keys)
          for (const name of lastUse) if (!live.has(name)) lastUse.delete(name)
          for (const name of [...footprints.keys()]) if (!live.has(name)) unmeasure(name)
          return keys.length > cap || (footprintTotal > budget && keys.length > 1)
        })
      })
      const enterNow = (name: CharacterName) => {
        inFlight.set(name, (inFlight.get(name) ?? 0) + 1)
        lastUse.delete(name)
        lastUse.add(name)
      }
      /** A request left: arms the pin's expiry, takes the estimate again when it is older than `footprintRefreshMillis`. */
      const leave = (name: CharacterName) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const n = (inFlight.get(name) ?? 1) - 1
          if (n > 0) inFlight.set(name, n)
          else inFlight.delete(name)
          const last = footprints.get(name)
          return (n > 0 ? Effect.void : pins.idleFrom(name, now)).pipe(
            Effect.zipRight(last !== undefined && now - last.at > footprintRefreshMillis ? measure(name) : Effect.void),
            Effect.zipRight(overCap),
            Effect.flatMap((over) => (over ? evictOverCap : Effect.void))
          )
        })
      // A failed build is not kept: the next request for the character tries to load it again.
      const get = (name: CharacterName) =>
        RcMap.get(actors, name).pipe(
          Effect.onError((cause) => (Cause.isInterruptedOnly(cause) ? Effect.void : RcMap.invalidate(actors, name)))
        )
      type Actor = Effect.Effect.Success<ReturnType<typeof get>>
      /** A request on the character: on its pinned actor when the door is open, else through the door and the map. */
      const using = <A, E>(name: CharacterName, f: (actor: Actor) => Effect.Effect<A, E>) =>
        Effect.uninterruptibleMask((restore) =>
          Effect.suspend(() => {
            const pinned = pins.peek(name)
            if (pinned === undefined || !admission.tryEnter(name))
              return restore(
                admission.admit(
                  name,
                  Effect.acquireUseRelease(
                    Effect.sync(() => enterNow(name)),
                    () => pins.acquire(name, get(name), f),
                    () => leave(name)
                  )
                )
              )
            enterNow(name)
            return Effect.ensuring(restore(f(pinned)), Effect.zipRight(admission.leave(name), leave(name)))
          })
        )
      return {
        ask: <A, E>(name: CharacterName, build: (reply: Deferred.Deferred<A, E | ActorDefect>) => Command) =>
          using(name, (actor) => actor.ask(build)),
        query: (name, input) => using(name, (actor) => actor.query(input)),
        newDialog: (name, lang) => using(name, (actor) => actor.newDialog(lang)),
        warm: (name) => using(name, () => Effect.void),
        tell: (name, command) => using(name, (actor) => actor.tell(command)),
        active: RcMap.keys(actors),
        close: (name) => Effect.suspend(() => (idle(name) ? drop(name) : Effect.void)),
        health: (name) =>
          Effect.gen(function* () {
            if (!(yield* RcMap.keys(actors)).includes(name)) return Option.none()
            return yield* using(name, (actor) => actor.health).pipe(Effect.option)
          }),
        exclusive: <A, E, R>(names: ReadonlyArray<CharacterName>, work: Effect.Effect<A, E, R>) =>
          Effect.scoped(
            Effect.gen(function* () {
              for (const name of names) {
                if (!(yield* admission.close(name, exclusiveWait)))
                  return yield* Effect.fail(new CharacterBusy({ name }))
                const held = yield* handover.hold(name, exclusiveWait, drop(name))
                if (Option.isNone(held)) return yield* Effect.fail(new CharacterBusy({ name }))
              }
              return yield* work
            })
          )
      }
    })
  )
}
