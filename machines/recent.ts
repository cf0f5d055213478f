/**
 * Recent-memory lifecycle of one character (neko-compat §4.1) as a pure XState machine: idle → compressing →
 * reviewing, with backoff after a failed compression and a dead letter for a snapshot that failed
 * `maxAttempts` times in a row (refused until the self-heal interval passes). One compression runs at a time:
 * a request that must see its own compression (`/settle`, `/renew`: `own`) while one runs is queued behind it,
 * any other request joins the running one. Compressions are numbered (`generation`); a caller waits on one
 * (`waitFor`) and is released when it is over (`release`), after its result is committed. After each compression the actor reports what is
 * left to compress (`resumeQueue` → `queue.resumed`). A compression preempts a review in flight (the review is
 * offered again afterwards); a review result that is not the current one is never committed. Effects are
 * typed actions the actor interprets; fingerprint keys, clocks and the review gate come in with the events.
 */
import { and, assign, not, or, setup, stateIn } from "xstate"

export interface RecentLimits {
  readonly maxAttempts: number
  readonly selfHealSeconds: number
  readonly idleSeconds: number
}

export interface RecentFailure {
  readonly key: string
  readonly attempts: number
  readonly at: number
}

export interface RecentContext {
  readonly limits: RecentLimits
  /** The generation of the compression running, or of the last one. */
  readonly generation: number
  /** A compression asked for (`own`) while one runs; it starts when that one is over. */
  readonly queued: { readonly detailed: boolean } | null
  readonly reviewWanted: boolean
  /** The generation of the review running, or of the last one. */
  readonly review: number
  readonly failure: RecentFailure | null
}

export type RecentEvent =
  /** `key`: the fingerprint key of what would be compressed now; null when nothing is over the threshold. */
  | {
      readonly type: "compress.requested"
      readonly detailed: boolean
      readonly own: boolean
      readonly key: string | null
      readonly now: number
    }
  | { readonly type: "compression.succeeded"; readonly generation: number }
  | {
      readonly type: "compression.failed"
      readonly generation: number
      readonly key: string
      readonly detailed: boolean
      readonly now: number
    }
  | { readonly type: "queue.resumed"; readonly key: string | null; readonly now: number }
  | { readonly type: "review.wanted" }
  /** `gate`: the review gate's verdict (`ok` or why not), computed by the actor from review_state.json. */
  | { readonly type: "review.checked"; readonly gate: string }
  | { readonly type: "review.finished"; readonly generation: number }
  | { readonly type: "review.cancelled" }
  | { readonly type: "idle.checked"; readonly idleForMs: number }

/** N.E.K.O.'s thresholds; the actor passes the configured ones as the machine's input. */
export const recentLimits: RecentLimits = { maxAttempts: 5, selfHealSeconds: 1800, idleSeconds: 10 }

type Ctx = { readonly context: RecentContext }
const keyed = (e: RecentEvent) => (e.type === "compress.requested" || e.type === "queue.resumed" ? e : undefined)
const deadFor = (c: RecentContext, key: string, now: number) =>
  c.failure !== null &&
  c.failure.key === key &&
  c.failure.attempts >= c.limits.maxAttempts &&
  now - c.failure.at < c.limits.selfHealSeconds * 1000
const attemptsAfter = (c: RecentContext, key: string) => (c.failure?.key === key ? c.failure.attempts + 1 : 1)
const next = ({ context }: Ctx) => ({ generation: context.generation + 1 })
const current = ({ context }: Ctx) => ({ generation: context.generation })
/** No compression and no review in flight. */
const resting = or([stateIn("idle"), stateIn("backoff"), stateIn("dead_letter")])

export const recentMachine = setup({
  types: {
    context: {} as RecentContext,
    events: {} as RecentEvent,
    input: {} as { readonly limits?: Partial<RecentLimits> } | undefined
  },
  actions: {
    startCompression: (_, _p: { readonly detailed: boolean; readonly generation: number }) => {},
    waitFor: (_, _p: { readonly generation: number }) => {},
    answer: () => {},
    commitCompression: () => {},
    release: (_, _p: { readonly generation: number }) => {},
    resumeQueue: () => {},
    hardCap: () => {},
    retryLater: (
      _,
      _p: { readonly detailed: boolean; readonly attempts: number; readonly deadLettered: boolean }
    ) => {},
    checkReview: () => {},
    startReview: (_, _p: { readonly generation: number }) => {},
    cancelReview: () => {},
    commitReview: () => {},
    scheduleIdleCheck: () => {},
    compressIdle: () => {}
  },
  guards: {
    nothingLeft: ({ event }) => keyed(event)?.key === null,
    deadLettered: ({ context, event }) => {
      const e = keyed(event)
      return e !== undefined && e.key !== null && deadFor(context, e.key, e.now)
    },
    own: ({ event }) => event.type === "compress.requested" && event.own,
    currentCompression: ({ context, event }) =>
      (event.type === "compression.succeeded" || event.type === "compression.failed") &&
      event.generation === context.generation,
    currentReview: ({ context, event }) => event.type === "review.finished" && event.generation === context.review,
    queued: ({ context }) => context.queued !== null,
    reviewWanted: ({ context }) => context.reviewWanted,
    failsOnceMore: ({ context, event }) =>
      event.type === "compression.failed" && attemptsAfter(context, event.key) >= context.limits.maxAttempts,
    failing: ({ context }) => context.failure !== null,
    exhausted: ({ context }) => context.failure !== null && context.failure.attempts >= context.limits.maxAttempts,
    gateOpen: ({ event }) => event.type === "review.checked" && event.gate === "ok",
    idleLongEnough: ({ context, event }) =>
      event.type === "idle.checked" && event.idleForMs >= context.limits.idleSeconds * 1000
  }
}).createMachine({
  id: "recent",
  initial: "idle",
  context: ({ input }) => ({
    limits: { ...recentLimits, ...input?.limits },
    generation: 0,
    queued: null,
    reviewWanted: false,
    review: 0,
    failure: null
  }),
  on: {
    "compress.requested": [
      { guard: and([resting, "nothingLeft"]), target: ".idle", actions: ["answer", assign({ failure: null })] },
      { guard: and([resting, "deadLettered"]), actions: "answer" },
      {
        guard: resting,
        target: ".compressing",
        actions: [
          {
            type: "startCompression",
            params: ({ context, event }) => ({ detailed: event.detailed, ...next({ context }) })
          },
          { type: "waitFor", params: next },
          assign({ generation: ({ context }) => context.generation + 1 })
        ]
      }
    ],
    "queue.resumed": [
      {
        guard: and([resting, "queued", not("nothingLeft"), not("deadLettered")]),
        target: ".compressing",
        actions: [
          {
            type: "startCompression",
            params: ({ context }) => ({ detailed: context.queued?.detailed ?? true, ...next({ context }) })
          },
          assign({ generation: ({ context }) => context.generation + 1, queued: null })
        ]
      },
      {
        guard: and([resting, "queued", "reviewWanted"]),
        actions: [
          { type: "release", params: next },
          assign({ generation: ({ context }) => context.generation + 1, queued: null, reviewWanted: false }),
          "checkReview"
        ]
      },
      {
        guard: and([resting, "queued"]),
        actions: [
          { type: "release", params: next },
          assign({ generation: ({ context }) => context.generation + 1, queued: null })
        ]
      },
      { guard: and([resting, "reviewWanted"]), actions: [assign({ reviewWanted: false }), "checkReview"] }
    ],
    "review.wanted": { guard: resting, actions: "checkReview" },
    "review.checked": {
      guard: and([resting, "gateOpen"]),
      target: ".reviewing",
      actions: [
        { type: "startReview", params: ({ context }) => ({ generation: context.review + 1 }) },
        assign({ review: ({ context }) => context.review + 1 })
      ]
    },
    "idle.checked": [
      { guard: and([resting, "idleLongEnough"]), actions: "compressIdle" },
      { guard: resting, actions: "scheduleIdleCheck" }
    ]
  },
  states: {
    idle: {},
    compressing: {
      on: {
        "compress.requested": [
          {
            guard: "own",
            actions: [
              { type: "waitFor", params: next },
              assign({ queued: ({ event }) => ({ detailed: event.detailed }) })
            ]
          },
          { actions: { type: "waitFor", params: current } }
        ],
        "review.wanted": { actions: assign({ reviewWanted: true }) },
        "compression.succeeded": {
          guard: "currentCompression",
          target: "idle",
          actions: ["commitCompression", { type: "release", params: current }, assign({ failure: null }), "resumeQueue"]
        },
        "compression.failed": [
          {
            guard: and(["currentCompression", "failsOnceMore"]),
            target: "dead_letter",
            actions: [
              assign({
                failure: ({ context, event }) => ({
                  key: event.key,
                  attempts: attemptsAfter(context, event.key),
                  at: event.now
                })
              }),
              "hardCap",
              { type: "release", params: current },
              {
                type: "retryLater",
                params: ({ context, event }) => ({
                  detailed: event.detailed,
                  attempts: context.failure?.attempts ?? 1,
                  deadLettered: true
                })
              },
              "resumeQueue"
            ]
          },
          {
            guard: "currentCompression",
            target: "backoff",
            actions: [
              assign({
                failure: ({ context, event }) => ({
                  key: event.key,
                  attempts: attemptsAfter(context, event.key),
                  at: event.now
                })
              }),
              "hardCap",
              { type: "release", params: current },
              {
                type: "retryLater",
                params: ({ context, event }) => ({
                  detailed: event.detailed,
                  attempts: context.failure?.attempts ?? 1,
                  deadLettered: false
                })
              },
              "resumeQueue"
            ]
          }
        ]
      }
    },
    reviewing: {
      on: {
        "compress.requested": [
          { guard: "nothingLeft", actions: "answer" },
          { guard: "deadLettered", actions: "answer" },
          {
            target: "compressing",
            actions: [
              "cancelReview",
              {
                type: "startCompression",
                params: ({ context, event }) => ({ detailed: event.detailed, ...next({ context }) })
              },
              { type: "waitFor", params: next },
              assign({ generation: ({ context }) => context.generation + 1, reviewWanted: true })
            ]
          }
        ],
        "review.finished": [
          { guard: and(["currentReview", "exhausted"]), target: "dead_letter", actions: "commitReview" },
          { guard: and(["currentReview", "failing"]), target: "backoff", actions: "commitReview" },
          { guard: "currentReview", target: "idle", actions: "commitReview" }
        ],
        "review.cancelled": { target: "idle", actions: "cancelReview" }
      }
    },
    backoff: {},
    dead_letter: {}
  }
})
