/**
 * Reflection lifecycle (neko-compat §2.4, §4.6, §4.8) as a pure XState machine:
 * pending → confirmed → promoted | merged | denied | promote_blocked → archived.
 * Guards read the evidence score, ages, mentions and the powerful-memory mode from the event, thresholds from
 * the context; side effects are typed actions the actor interprets (a status change becomes one journaled
 * `reflection.state_changed`, the suppression of a confirmed reflection one `reflection.updated`). A
 * confirmed reflection mentioned too often is suppressed, and lifted after the cooldown, without leaving
 * `confirmed`; a queued persona correction finishing its promotion ends it as `promotion.fresh` (kept) or
 * `promotion.rejected` (the old entry won).
 */
import { Schema } from "effect"
import { and, or, setup, stateIn } from "xstate"

export type ReflectionEvent =
  | {
      readonly type: "evidence.evaluated"
      readonly score: number
      readonly powerful: boolean
      readonly daysSinceCreated: number
      readonly daysSinceConfirmed: number
      readonly minutesSincePromoteAttempt: number | null
      readonly promoteAttempts: number
    }
  | { readonly type: "feedback"; readonly verdict: "confirmed" | "denied" | "ignored" }
  | { readonly type: "rebutted" }
  /** An operator's decision in the memory browser. */
  | { readonly type: "manual"; readonly action: "confirm" | "deny" | "archive" }
  | { readonly type: "promotion.fresh" }
  | { readonly type: "promotion.merged"; readonly into: string }
  | { readonly type: "promotion.rejected"; readonly reason: string }
  | { readonly type: "sub_zero.checked"; readonly days: number }
  | { readonly type: "retention.checked"; readonly daysSinceTerminal: number }
  /** The character's reply mentioned it; `mentionsInWindow` counts this one. */
  | { readonly type: "mentioned"; readonly mentionsInWindow: number; readonly suppressed: boolean }
  | { readonly type: "cooldown.checked"; readonly hoursSinceSuppressed: number; readonly suppressed: boolean }

export interface ReflectionLimits {
  readonly confirm: number
  readonly promote: number
  readonly autoDays: number
  readonly autoPromoteDays: number
  readonly backoffMinutes: number
  readonly maxAttempts: number
  readonly archiveDays: number
  readonly keepDays: number
  readonly mentions: number
  readonly cooldownHours: number
}

/** N.E.K.O.'s thresholds; the actor passes the configured ones as the machine's context. */
export const limits: ReflectionLimits = {
  confirm: 1,
  promote: 2,
  autoDays: 7,
  autoPromoteDays: 7,
  backoffMinutes: 30,
  maxAttempts: 5,
  archiveDays: 14,
  keepDays: 30,
  mentions: 2,
  cooldownHours: 5
}

/** Feedback only applies while the reflection is still live. */
const live = or([stateIn("pending"), stateIn("confirmed")])

const evaluated = (e: ReflectionEvent) => (e.type === "evidence.evaluated" ? e : undefined)

export const reflectionMachine = setup({
  types: {
    context: {} as { readonly limits: ReflectionLimits },
    events: {} as ReflectionEvent,
    input: {} as { readonly limits?: Partial<ReflectionLimits> } | undefined
  },
  actions: {
    markConfirmed: (_, _p: { readonly auto: boolean }) => {},
    requestPromotion: () => {},
    promoteTimeDriven: () => {},
    markBlocked: (_, _p: { readonly reason: string }) => {},
    markPromoted: () => {},
    markMerged: (_, _p: { readonly into: string }) => {},
    markDenied: (_, _p: { readonly reason: string }) => {},
    applyFeedback: (_, _p: { readonly verdict: "confirmed" | "denied" | "ignored" }) => {},
    archive: (_, _p: { readonly reason: string }) => {},
    markSuppressed: () => {},
    liftSuppression: () => {}
  },
  guards: {
    scoreConfirms: ({ context, event }) => {
      const e = evaluated(event)
      return e !== undefined && e.powerful && e.score >= context.limits.confirm
    },
    ageConfirms: ({ context, event }) => {
      const e = evaluated(event)
      return e !== undefined && !e.powerful && e.daysSinceCreated >= context.limits.autoDays
    },
    promotionBlocked: ({ context, event }) => {
      const e = evaluated(event)
      return (
        e !== undefined &&
        e.powerful &&
        e.score >= context.limits.promote &&
        e.promoteAttempts >= context.limits.maxAttempts
      )
    },
    promotionDue: ({ context, event }) => {
      const e = evaluated(event)
      return (
        e !== undefined &&
        e.powerful &&
        e.score >= context.limits.promote &&
        (e.minutesSincePromoteAttempt === null || e.minutesSincePromoteAttempt >= context.limits.backoffMinutes)
      )
    },
    ageConfirmedPromotes: ({ context, event }) => {
      const e = evaluated(event)
      return e !== undefined && !e.powerful && e.daysSinceConfirmed >= context.limits.autoPromoteDays
    },
    manualIs: ({ event }, p: { readonly action: string }) => event.type === "manual" && event.action === p.action,
    denied: ({ event }) => event.type === "feedback" && event.verdict === "denied",
    subZeroLong: ({ context, event }) => event.type === "sub_zero.checked" && event.days >= context.limits.archiveDays,
    retentionOver: ({ context, event }) =>
      event.type === "retention.checked" && event.daysSinceTerminal >= context.limits.keepDays,
    overMentioned: ({ context, event }) =>
      event.type === "mentioned" && !event.suppressed && event.mentionsInWindow > context.limits.mentions,
    cooledDown: ({ context, event }) =>
      event.type === "cooldown.checked" &&
      event.suppressed &&
      event.hoursSinceSuppressed >= context.limits.cooldownHours
  }
}).createMachine({
  id: "reflection",
  initial: "pending",
  context: ({ input }) => ({ limits: { ...limits, ...input?.limits } }),
  on: {
    "sub_zero.checked": {
      guard: "subZeroLong",
      target: ".archived",
      actions: { type: "archive", params: { reason: "sub_zero" } }
    },
    feedback: [
      {
        guard: and([live, "denied"]),
        target: ".denied",
        actions: [
          { type: "applyFeedback", params: { verdict: "denied" } },
          { type: "markDenied", params: { reason: "user_denied" } }
        ]
      },
      { guard: live, actions: { type: "applyFeedback", params: ({ event }) => ({ verdict: event.verdict }) } }
    ],
    manual: {
      guard: { type: "manualIs", params: { action: "archive" } },
      target: ".archived",
      actions: { type: "archive", params: { reason: "manual" } }
    }
  },
  states: {
    pending: {
      on: {
        "evidence.evaluated": [
          { guard: "scoreConfirms", target: "confirmed", actions: { type: "markConfirmed", params: { auto: false } } },
          { guard: "ageConfirms", target: "confirmed", actions: { type: "markConfirmed", params: { auto: true } } }
        ],
        manual: [
          {
            guard: { type: "manualIs", params: { action: "confirm" } },
            target: "confirmed",
            actions: { type: "markConfirmed", params: { auto: false } }
          },
          {
            guard: { type: "manualIs", params: { action: "deny" } },
            target: "denied",
            actions: { type: "markDenied", params: { reason: "manual" } }
          }
        ]
      }
    },
    confirmed: {
      on: {
        "evidence.evaluated": [
          {
            guard: "promotionBlocked",
            target: "promote_blocked",
            actions: { type: "markBlocked", params: { reason: "llm_unavailable" } }
          },
          { guard: "promotionDue", actions: "requestPromotion" },
          { guard: "ageConfirmedPromotes", actions: "promoteTimeDriven" }
        ],
        rebutted: { target: "denied", actions: { type: "markDenied", params: { reason: "rebuttal" } } },
        manual: {
          guard: { type: "manualIs", params: { action: "deny" } },
          target: "denied",
          actions: { type: "markDenied", params: { reason: "manual" } }
        },
        "promotion.fresh": { target: "promoted", actions: "markPromoted" },
        "promotion.merged": {
          target: "merged",
          actions: { type: "markMerged", params: ({ event }) => ({ into: event.into }) }
        },
        "promotion.rejected": {
          target: "denied",
          actions: { type: "markDenied", params: ({ event }) => ({ reason: event.reason }) }
        },
        mentioned: { guard: "overMentioned", actions: "markSuppressed" },
        "cooldown.checked": { guard: "cooledDown", actions: "liftSuppression" }
      }
    },
    promoted: {
      on: {
        "retention.checked": {
          guard: "retentionOver",
          target: "archived",
          actions: { type: "archive", params: { reason: "retention" } }
        }
      }
    },
    denied: {
      on: {
        "retention.checked": {
          guard: "retentionOver",
          target: "archived",
          actions: { type: "archive", params: { reason: "retention" } }
        }
      }
    },
    merged: {},
    promote_blocked: {},
    archived: { type: "final" }
  }
})

const Reason = Schema.Struct({ reason: Schema.String })
export const ReflectionCommand = Schema.Union(
  Schema.Struct({ type: Schema.Literal("markConfirmed"), params: Schema.Struct({ auto: Schema.Boolean }) }),
  Schema.Struct({ type: Schema.Literal("requestPromotion") }),
  Schema.Struct({ type: Schema.Literal("promoteTimeDriven") }),
  Schema.Struct({ type: Schema.Literal("markBlocked"), params: Reason }),
  Schema.Struct({ type: Schema.Literal("markPromoted") }),
  Schema.Struct({ type: Schema.Literal("markMerged"), params: Schema.Struct({ into: Schema.String }) }),
  Schema.Struct({ type: Schema.Literal("markDenied"), params: Reason }),
  Schema.Struct({
    type: Schema.Literal("applyFeedback"),
    params: Schema.Struct({ verdict: Schema.Literal("confirmed", "denied", "ignored") })
  }),
  Schema.Struct({ type: Schema.Literal("archive"), params: Reason }),
  Schema.Struct({ type: Schema.Literal("markSuppressed") }),
  Schema.Struct({ type: Schema.Literal("liftSuppression") })
)
export type ReflectionCommand = typeof ReflectionCommand.Type
export const decodeReflectionCommand = Schema.decodeUnknownOption(ReflectionCommand)
