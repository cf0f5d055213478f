/**
 * Persona-entry lifecycle (neko-compat §2.5, §4.7, §4.8) as a pure XState machine: active, suppressed (too
 * many mentions; shown only in the do-not-raise section until the cooldown passes), corrected (a newer
 * statement contradicts it and a correction is queued; it is not suppressed meanwhile), archived. Protected
 * entries (character-card lines) are never suppressed or archived, and a statement contradicting one is
 * rejected. A contradiction of a suppressed entry lifts the suppression and queues the correction; the entry
 * is active again once its last queued correction is resolved. The state of a stored entry is derived in one
 * place (src/memory/persona/PersonaState.ts). Effects are typed actions the actor interprets.
 */
import { Schema } from "effect"
import { and, setup } from "xstate"

export interface PersonaLimits {
  readonly mentions: number
  readonly cooldownHours: number
  readonly archiveDays: number
}

export interface PersonaContext {
  readonly protected: boolean
  readonly limits: PersonaLimits
}

export type PersonaEvent =
  | { readonly type: "mentioned"; readonly mentionsInWindow: number }
  | { readonly type: "cooldown.checked"; readonly hoursSinceSuppressed: number }
  | { readonly type: "contradicted"; readonly correctionId: string }
  | {
      readonly type: "correction.resolved"
      readonly action: "merge" | "keep_new" | "keep_old" | "keep_both"
      readonly text?: string
      /** Other corrections still queued against this entry. */
      readonly othersQueued: number
    }
  | { readonly type: "sub_zero.checked"; readonly days: number }
  | { readonly type: "archive.requested" }

/** N.E.K.O.'s thresholds; the actor passes the configured ones in the context. */
export const personaLimits: PersonaLimits = { mentions: 2, cooldownHours: 5, archiveDays: 14 }

export const personaMachine = setup({
  types: {
    context: {} as PersonaContext,
    events: {} as PersonaEvent,
    input: {} as { readonly protected: boolean; readonly limits?: Partial<PersonaLimits> }
  },
  actions: {
    markSuppressed: () => {},
    liftSuppression: () => {},
    queueCorrection: (_, _p: { readonly correctionId: string }) => {},
    rewrite: (_, _p: { readonly text: string }) => {},
    replaceWithNew: () => {},
    dropNew: () => {},
    appendNew: () => {},
    rejectNew: () => {},
    archive: (_, _p: { readonly reason: string }) => {}
  },
  guards: {
    overMentioned: ({ context, event }) =>
      !context.protected && event.type === "mentioned" && event.mentionsInWindow > context.limits.mentions,
    isProtected: ({ context }) => context.protected,
    othersQueued: ({ event }) => event.type === "correction.resolved" && event.othersQueued > 0,
    cooledDown: ({ context, event }) =>
      event.type === "cooldown.checked" && event.hoursSinceSuppressed >= context.limits.cooldownHours,
    archivable: ({ context, event }) =>
      !context.protected &&
      (event.type === "archive.requested" ||
        (event.type === "sub_zero.checked" && event.days >= context.limits.archiveDays)),
    resolvedAs: ({ event }, p: { readonly action: string }) =>
      event.type === "correction.resolved" && event.action === p.action
  }
}).createMachine({
  id: "persona",
  initial: "active",
  context: ({ input }) => ({ protected: input.protected, limits: { ...personaLimits, ...input.limits } }),
  on: {
    "sub_zero.checked": {
      guard: "archivable",
      target: ".archived",
      actions: { type: "archive", params: { reason: "sub_zero" } }
    },
    "archive.requested": {
      guard: "archivable",
      target: ".archived",
      actions: { type: "archive", params: { reason: "manual" } }
    }
  },
  states: {
    active: {
      on: {
        mentioned: { guard: "overMentioned", target: "suppressed", actions: "markSuppressed" },
        contradicted: [
          { guard: "isProtected", actions: "rejectNew" },
          {
            target: "corrected",
            actions: { type: "queueCorrection", params: ({ event }) => ({ correctionId: event.correctionId }) }
          }
        ]
      }
    },
    suppressed: {
      on: {
        "cooldown.checked": { guard: "cooledDown", target: "active", actions: "liftSuppression" },
        contradicted: {
          target: "corrected",
          actions: [
            "liftSuppression",
            { type: "queueCorrection", params: ({ event }) => ({ correctionId: event.correctionId }) }
          ]
        }
      }
    },
    corrected: {
      on: {
        contradicted: {
          actions: { type: "queueCorrection", params: ({ event }) => ({ correctionId: event.correctionId }) }
        },
        "correction.resolved": [
          {
            guard: and([{ type: "resolvedAs", params: { action: "merge" } }, "othersQueued"]),
            actions: { type: "rewrite", params: ({ event }) => ({ text: event.text ?? "" }) }
          },
          {
            guard: and([{ type: "resolvedAs", params: { action: "keep_new" } }, "othersQueued"]),
            actions: "replaceWithNew"
          },
          { guard: and([{ type: "resolvedAs", params: { action: "keep_old" } }, "othersQueued"]), actions: "dropNew" },
          { guard: "othersQueued", actions: "appendNew" },
          {
            guard: { type: "resolvedAs", params: { action: "merge" } },
            target: "active",
            actions: { type: "rewrite", params: ({ event }) => ({ text: event.text ?? "" }) }
          },
          {
            guard: { type: "resolvedAs", params: { action: "keep_new" } },
            target: "active",
            actions: "replaceWithNew"
          },
          { guard: { type: "resolvedAs", params: { action: "keep_old" } }, target: "active", actions: "dropNew" },
          { target: "active", actions: "appendNew" }
        ]
      }
    },
    archived: { type: "final" }
  }
})

export const PersonaCommand = Schema.Union(
  Schema.Struct({ type: Schema.Literal("markSuppressed") }),
  Schema.Struct({ type: Schema.Literal("liftSuppression") }),
  Schema.Struct({ type: Schema.Literal("queueCorrection"), params: Schema.Struct({ correctionId: Schema.String }) }),
  Schema.Struct({ type: Schema.Literal("rewrite"), params: Schema.Struct({ text: Schema.String }) }),
  Schema.Struct({ type: Schema.Literal("replaceWithNew") }),
  Schema.Struct({ type: Schema.Literal("dropNew") }),
  Schema.Struct({ type: Schema.Literal("appendNew") }),
  Schema.Struct({ type: Schema.Literal("rejectNew") }),
  Schema.Struct({ type: Schema.Literal("archive"), params: Schema.Struct({ reason: Schema.String }) })
)
export type PersonaCommand = typeof PersonaCommand.Type
export const decodePersonaCommand = Schema.decodeUnknownOption(PersonaCommand)
