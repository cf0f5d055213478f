/**
 * One character's actor: the mailbox behaviour that interprets the session machine. Consecutive writes in a
 * batch are committed together (one journal fsync, one time-index transaction, one recent.json write), and
 * every caller of the group is answered only after its turns are durable — `/process`, `/renew` and `/settle`
 * callers, as in N.E.K.O., only once the compression they started is over (the mailbox stays free meanwhile).
 * Reads flush pending writes first, so they observe every earlier command; `new_dialog` waits while a
 * settle is in flight. `/query_memory`, and `/new_dialog` when rendering it writes nothing, do not queue behind a
 * batch or a lane job: they run on the loaded state under the actor's read lock (BesideReads.ts).
 */
import { Deferred, Effect, Option, type Scope } from "effect"
import type { SessionCommand, SessionEvent } from "../../machines/session.js"
import type { CharacterName } from "../domain/CharacterName.js"
import { AppFiles } from "../store/AppFiles.js"
import { StoreError } from "../store/DurableFs.js"
import { KiokuConfig } from "../Config.js"
import * as Actor from "../runtime/Actor.js"
import * as State from "./CharacterState.js"
import type { Command, ReadLanguage } from "./Commands.js"
import type { ChineseScript } from "../domain/ChineseScript.js"
import type { MemoryTasks } from "./MemoryTasks.js"
import type { Tokenizer } from "../llm/Tokenizer.js"
import type { RecentCompressor } from "../recent/RecentCompressor.js"
import { isRecentCommand } from "../recent/RecentCommands.js"
import { isScopedCommand } from "../scoped/ScopedCommands.js"
import { Embedder } from "../vectors/Embedder.js"
import { OutboxHandlers } from "../runtime/OutboxHandlers.js"
import * as Locale from "./locale/PromptLocale.js"
import * as LocaleCommands from "./locale/LocaleCommands.js"
import type { DerivedClaims } from "../runtime/DerivedClaims.js"
import { makeReads } from "./Reads.js"
import * as ReadCommands from "./ReadCommands.js"
import type { QueryRequest, QueryResult } from "../recall/RecallTypes.js"
import * as Lane from "../runtime/Lane.js"
import { inLane, jobOf } from "./LaneCommands.js"
import * as WriteCommit from "./WriteCommit.js"
import * as CheckpointPlan from "../runtime/CheckpointPlan.js"
import * as IdleRelease from "./IdleRelease.js"
import { DueWork } from "../maintenance/DueWork.js"
import * as BesideReads from "./beside/BesideReads.js"
import * as SessionStep from "./lifecycle/SessionStep.js"
import * as ActorParts from "./lifecycle/ActorParts.js"
import * as Later from "./lifecycle/Later.js"

/** How long closing an actor waits for the recall index writes in flight (the next start reads the index). */
const INDEX_SETTLE_WAIT = "10 seconds"

/** A character's actor: its mailbox, and the reads served beside it (BesideReads.ts). */
export interface CharacterActorRef extends Actor.ActorRef<Command> {
  readonly query: (input: QueryRequest) => Effect.Effect<QueryResult, StoreError | Actor.ActorDefect>
  readonly newDialog: (lang: ReadLanguage) => Effect.Effect<string, StoreError | Actor.ActorDefect>
}

const defect = (message: string) => new Actor.ActorDefect({ actor: "lane", message })

export const make = (name: CharacterName) =>
  Effect.gen(function* () {
    const settings = yield* KiokuConfig
    const files = yield* AppFiles
    const embedder = yield* Embedder
    const dueWork = yield* DueWork
    const scope = yield* Effect.scope
    const t = settings.tunables
    const inbox = yield* Actor.mailbox<Command>(t.actor_mailbox_capacity)
    const reads = makeReads({ name, tunables: t, files })
    const { speakers, renderDialog } = reads
    const speakerNames = Effect.map(speakers, (s) => s.speakers)
    const { later, waiting } = Later.make(inbox.tell, scope)
    /** The state the mailbox works on (replaced when the actor reloads after a defect). */
    let current: State.CharacterState | undefined
    const lane = yield* Lane.make(() => current?.recordWrites ?? 0)
    const parts = yield* ActorParts.make({
      name,
      tunables: t,
      scope,
      files,
      embedder,
      reads,
      speakers: speakerNames,
      later,
      waiting,
      tell: inbox.tell,
      wakeDrain: (state): Effect.Effect<void> =>
        lane.submit(jobOf({ _tag: "DrainOutbox" }, drainJob(state), () => Effect.void))
    })
    const { reviewer, recent, recentEdit, memory, intake, scoped, recallVectors, recall, maintenance, locked } = parts
    const { drain, scheduleDrain } = parts

    /** A drain handed to the lane; one queued before the state was reloaded has nothing left to do. */
    const drainJob = (state: State.CharacterState): Effect.Effect<void> =>
      Effect.suspend(() => (state === current ? Effect.asVoid(drain(state)) : Effect.void))
    /** A lane command's work; a job queued before the state was reloaded answers its caller with a defect. */
    const background = (state: State.CharacterState, envelope: Actor.Envelope<Command>) =>
      Effect.suspend(() => {
        const c = envelope.command
        if (state !== current) return Effect.asVoid(envelope.fail(defect("actor state reloaded")))
        if (c._tag === "DrainOutbox") return Effect.asVoid(drain(state))
        return maintenance.handle(state, c).pipe(
          Effect.flatMap((done) => (done ? Effect.succeed(true) : memory.handle(state, c))),
          Effect.flatMap((done) => (done ? Effect.void : unhandled(envelope)))
        )
      })

    /** A command no handler takes is a defect: logged, and its caller answered with `ActorDefect`. */
    const unhandled = (envelope: Actor.Envelope<Command>) =>
      Effect.logError("no handler for command").pipe(
        Effect.annotateLogs({ command: envelope.command._tag }),
        Effect.zipRight(
          envelope.fail(new Actor.ActorDefect({ actor: name, message: `no handler for ${envelope.command._tag}` }))
        ),
        Effect.asVoid
      )

    /** Answers callers of `AwaitBackground` once no compression, review, drain or lane job is in flight. */
    const releaseQuiet = (state: State.CharacterState) => {
      const busy = recent.busy(state) || state.drainScheduled || !lane.idle()
      if (busy || state.quietWaiters.length === 0) return Effect.void
      const waiting = state.quietWaiters
      state.quietWaiters = []
      return Effect.all(waiting, { discard: true })
    }

    const checkpoints = CheckpointPlan.make({
      intervalMs: t.journal_checkpoint_interval_ms,
      idleMs: t.recent_write_idle_ms,
      later: (idle, delay) => later({ _tag: "Checkpoint", idle }, delay)
    })
    /** End of a batch or a lane job: retry unapplied events, release quiet waiters, plan the checkpoint. */
    const settle = (state: State.CharacterState) =>
      Effect.gen(function* () {
        if (state.unapplied.length > 0) yield* State.applyUnapplied(state)
        yield* releaseQuiet(state)
        yield* checkpoints.plan(state)
      })

    const idleRelease = IdleRelease.make({
      tunables: t,
      scope,
      tell: inbox.tell,
      busy: (state) => recent.busy(state) || state.drainScheduled || !lane.idle(),
      releaseHandles: (state) => locked(State.release(state)),
      releaseViews: (state) =>
        locked(
          Effect.all(
            [recall.release(state, !state.vectorBacklog), State.releaseViews(state), recallVectors.release(state)],
            {
              discard: true
            }
          )
        )
    })
    const readCommands = ReadCommands.make({ name, reads, compressing: recent.compressing })
    const commit = WriteCommit.make({ recent, reviewer, scheduleDrain, settleDone: later({ _tag: "SettleDone" }) })

    const handle = (state: State.CharacterState, batch: ReadonlyArray<Actor.Envelope<Command>>) =>
      Effect.gen(function* () {
        current = state
        let group: Array<WriteCommit.Write> = []
        const flush = Effect.suspend(() => {
          const g = group
          group = []
          return commit(state, g)
        })
        const step = (event: SessionEvent): ReadonlyArray<SessionCommand> => {
          const [next, emitted] = SessionStep.step(state.snapshot, event)
          state.snapshot = next
          return emitted
        }
        const answer = <A>(
          reply: Deferred.Deferred<A, StoreError | Actor.ActorDefect>,
          work: Effect.Effect<A, StoreError>
        ) =>
          Effect.either(work).pipe(
            Effect.flatMap((r) =>
              Deferred.complete(reply, r._tag === "Right" ? Effect.succeed(r.right) : Effect.fail(r.left))
            )
          )
        for (const envelope of batch) {
          const c = envelope.command
          if (c._tag === "Write") {
            group.push({
              request: c.request,
              reply: c.reply,
              actions: step({ type: c.request.kind, count: c.request.messages.length })
            })
            continue
          }
          yield* flush
          if (inLane(c)) {
            yield* lane.submit(
              jobOf(c, background(state, envelope), (message) => Effect.asVoid(envelope.fail(defect(message))))
            )
          } else if (c._tag === "NewDialog") {
            if (Option.isSome(c.lang.language) && state.exists()) {
              yield* Locale.remember(state, c.lang.language.value)
            }
            const emitted = step({ type: "new_dialog" })
            const render = answer(c.reply, renderDialog(state, c.lang, memory.personaBlock))
            for (const a of emitted) {
              if (a.type === "deferDialog") state.deferredDialogs.push(Effect.asVoid(render))
              else if (a.type === "renderDialog") yield* render
            }
          } else if (c._tag === "QueryMemory") {
            yield* Deferred.succeed(c.reply, yield* locked(recall.query(state, c.input)))
          } else if (yield* readCommands.handle(state, c)) {
            continue
          } else if (c._tag === "AwaitBackground") {
            state.quietWaiters.push(
              Effect.zipRight(recall.indexSettled, Effect.asVoid(Deferred.succeed(c.reply, undefined)))
            )
          } else if (c._tag === "SettleDone") {
            for (const a of step({ type: "settle.done" })) {
              if (a.type === "releaseDialogs") {
                yield* Effect.all(state.deferredDialogs.splice(0, a.params.count), { discard: true })
              } else if (a.type === "offerReview") yield* recent.send(state, { type: "review.wanted" })
            }
          } else if (c._tag === "ReleaseHandles") {
            yield* idleRelease.check(state)
          } else if (c._tag === "Checkpoint") {
            yield* checkpoints.run(state, c.idle === true)
          } else if (isRecentCommand(c)) {
            if (!(yield* recent.handle(state, c)) && !(yield* recentEdit.handle(state, c))) yield* unhandled(envelope)
          } else if (isScopedCommand(c)) {
            yield* scoped.handle(state, c)
          } else if (yield* LocaleCommands.handle(state, c)) {
            continue
          } else if (!(yield* memory.handle(state, c))) {
            yield* unhandled(envelope)
          }
        }
        yield* flush
        yield* settle(state)
        yield* batch.some((e) => IdleRelease.isUse(e.command)) ? idleRelease.used(state) : idleRelease.worked(state)
      }).pipe(lane.exclusive)

    const ref = yield* Actor.make<State.CharacterState, Command, StoreError>(
      name,
      {
        init: State.load(name, settings.dataDir, t, dueWork.mark(name)).pipe(
          Effect.tap((state) => Effect.sync(() => (current = state))),
          Effect.catchTag("ViewDecodeError", (e) => Effect.die(e)),
          Effect.tap((state) => scheduleDrain(state)),
          Effect.tap((state) => intake.resume(state))
        ),
        handle,
        release: (state) =>
          Effect.gen(function* () {
            yield* Effect.all(state.deferredDialogs, { discard: true })
            yield* recent.abandon(state)
            // What the views were loaded for may have changed the files: the recall index follows before they go
            // (not its pack: that could start loading the embedding model on the way out).
            if (State.viewsHeld(state)) {
              yield* locked(recall.release(state, false))
              yield* Effect.interruptible(recall.indexSettled).pipe(Effect.timeoutOption(INDEX_SETTLE_WAIT))
            }
            yield* locked(
              Effect.zipRight(
                State.release(state),
                Effect.sync(() => {
                  if (current === state) current = undefined
                })
              )
            )
          })
      },
      { capacity: t.actor_mailbox_capacity, maxBatch: t.actor_max_batch, mailbox: inbox }
    )
    // Started after the mailbox so that closing the actor stops the lane before the state is released.
    yield* lane.start(
      scope,
      Effect.suspend(() => (current ? Effect.zipRight(settle(current), idleRelease.worked(current)) : Effect.void))
    )
    const beside = BesideReads.make({
      ref,
      current: () => current,
      locked,
      used: idleRelease.used,
      query: recall.query,
      render: (state, lang) => renderDialog(state, lang, (s, l) => memory.personaBlock(s, l, true)),
      personaSettled: memory.personaSettled
    })
    return { ...ref, query: beside.query, newDialog: beside.newDialog }
  }) satisfies Effect.Effect<
    CharacterActorRef,
    StoreError | Actor.ActorDefect,
    | Scope.Scope
    | KiokuConfig
    | AppFiles
    | OutboxHandlers
    | RecentCompressor
    | DerivedClaims
    | Tokenizer
    | MemoryTasks
    | ChineseScript
    | Embedder
    | DueWork
  >
