/**
 * A character's background lane. Jobs that may call a model (extraction, synthesis, evaluation and
 * promotion, corrections, rebuttal, sweeps, maintenance, manual lifecycle actions) run one at a time on the
 * lane's own fiber instead of inside a mailbox batch. Mailbox batches and jobs share one exclusive section, so
 * their reads and writes never interleave; a job lends the section out while it waits for a model
 * (llm/Section.ts), which keeps chat commands flowing through a slow or failing provider. Reply-less jobs of
 * one kind that are still queued are coalesced; when the actor stops, the callers of jobs not yet done are
 * answered with a defect.
 */
import { Cause, Effect, Equal, type FiberId, Option, Queue, type Scope } from "effect"
import { CurrentSection, type Section } from "../llm/Section.js"
export interface Job {
  /** Coalescing key for reply-less jobs; undefined never coalesces. */
  readonly key: string | undefined
  readonly run: Effect.Effect<void>
  /** Called with the failure when the job dies, so a waiting caller is answered. */
  readonly died: (message: string) => Effect.Effect<void>
}

/** `recordWrites` reads the character's count of reflection and persona writes (CharacterState). */
export const make = (recordWrites: () => number) =>
  Effect.gen(function* () {
    const queue = yield* Queue.unbounded<Job>()
    const queued = new Set<string>()
    let holder: FiberId.FiberId | undefined
    let busy = false
    let waiting = 0
    let stopped = false

    // The section's lock: taken at once when free (a mailbox batch nearly always finds it so), else in turn; `give`
    // hands it straight to the next waiter. A semaphore cost each batch about forty runtime steps. It is only ever
    // taken uninterruptibly (the acquire of `exclusive`, the finaliser that takes it back after a model call), so a
    // waiter handed the lock always goes on to hold it.
    let held = false
    const waiters: Array<() => void> = []
    const own = Effect.withFiberRuntime<void>((fiber) => {
      holder = fiber.id()
      return Effect.void
    })
    const take = Effect.suspend(() => {
      if (!held) {
        held = true
        return own
      }
      return Effect.zipRight(
        Effect.async<void>((resume) => {
          const wake = () => resume(Effect.void)
          waiters.push(wake)
          // Not reached while taken uninterruptibly; a waiter interrupted before its turn leaves the line.
          return Effect.sync(() => {
            const at = waiters.indexOf(wake)
            if (at >= 0) waiters.splice(at, 1)
          })
        }),
        own
      )
    })
    const give = Effect.sync(() => {
      holder = undefined
      const next = waiters.shift()
      if (next === undefined) held = false
      else next()
    })
    /** Runs `effect` inside the section (a mailbox batch, or a job). */
    const exclusive = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.acquireUseRelease(
        take,
        () => effect,
        () => give
      )

    const section: Section = {
      leave: Effect.fiberIdWith((id) =>
        holder !== undefined && Equal.equals(holder, id)
          ? Effect.as(give, Option.some(recordWrites()))
          : Effect.succeed(Option.none())
      ),
      enter: take,
      changedSince: (token) => recordWrites() !== token
    }

    const submit = (job: Job) =>
      Effect.suspend(() => {
        if (stopped) return job.died("actor stopped")
        if (job.key !== undefined) {
          if (queued.has(job.key)) return Effect.void
          queued.add(job.key)
        }
        waiting++
        return Queue.offer(queue, job)
      }).pipe(Effect.asVoid)

    /** Starts the lane's fiber in `scope`; `afterEach` runs inside the section after every job. */
    const start = (scope: Scope.Scope, afterEach: Effect.Effect<void>) =>
      Queue.take(queue).pipe(
        Effect.flatMap((job) =>
          Effect.gen(function* () {
            if (job.key !== undefined) queued.delete(job.key)
            waiting--
            busy = true
            const exit = yield* Effect.exit(
              exclusive(
                Effect.locally(job.run, CurrentSection, Option.some(section)).pipe(
                  Effect.ensuring(Effect.sync(() => (busy = false))),
                  Effect.zipRight(afterEach)
                )
              ).pipe(Effect.onInterrupt(() => job.died("actor stopped")))
            )
            if (exit._tag === "Failure" && !Cause.isInterruptedOnly(exit.cause)) {
              const message = Cause.pretty(exit.cause).split("\n")[0] ?? "defect"
              yield* Effect.logError("background job died").pipe(Effect.annotateLogs({ job: job.key ?? "", message }))
              yield* job.died(message)
            }
          })
        ),
        Effect.forever,
        // Closing the actor: callers of jobs still queued are answered, never left waiting.
        Effect.onInterrupt(() =>
          Effect.sync(() => (stopped = true)).pipe(
            Effect.zipRight(Queue.takeAll(queue)),
            Effect.flatMap((left) => Effect.forEach(left, (job) => job.died("actor stopped")))
          )
        ),
        Effect.interruptible,
        Effect.forkIn(scope),
        Effect.asVoid
      )

    return {
      exclusive,
      submit,
      start,
      /** No job running or queued. */
      idle: () => !busy && waiting === 0
    }
  })
