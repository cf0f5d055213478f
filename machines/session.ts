/**
 * Session lifecycle of one character, as a pure XState machine.
 *
 * The actor feeds it one event per request (`cache`, `process`, `renew`, `settle`, `new_dialog`) and one
 * `settle.done` per finished detailed settle. The machine never performs effects: it emits typed actions
 * (`persistTurns`, `compress`, `startSettle`, `offerReview`, `renderDialog`, `deferDialog`, `releaseDialogs`)
 * that the actor interprets, and only those: a write is journaled because of `persistTurns` (an empty
 * `/cache` emits none), a dialog is rendered because of `renderDialog`, and `releaseDialogs` names how many
 * deferred dialogs to release. While a settle is in flight, `new_dialog` is deferred until every settle is done.
 */
import { Schema } from "effect"
import { assign, setup } from "xstate"

export interface SessionContext {
  readonly settlesInFlight: number
  readonly deferredDialogs: number
}

export type SessionEvent =
  | { readonly type: "cache"; readonly count: number }
  | { readonly type: "process"; readonly count: number }
  | { readonly type: "renew"; readonly count: number }
  | { readonly type: "settle"; readonly count: number }
  | { readonly type: "settle.done" }
  | { readonly type: "new_dialog" }

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent
  },
  actions: {
    persistTurns: (_, _p: { readonly count: number }) => {},
    compress: (_, _p: { readonly detailed: boolean }) => {},
    startSettle: (_, _p: { readonly detailed: boolean }) => {},
    offerReview: () => {},
    renderDialog: () => {},
    deferDialog: () => {},
    releaseDialogs: (_, _p: { readonly count: number }) => {}
  },
  guards: {
    hasTurns: ({ event }) => "count" in event && event.count > 0,
    lastSettle: ({ context }) => context.settlesInFlight <= 1
  }
}).createMachine({
  id: "session",
  initial: "idle",
  context: { settlesInFlight: 0, deferredDialogs: 0 },
  on: {
    cache: {
      guard: "hasTurns",
      actions: { type: "persistTurns", params: ({ event }) => ({ count: event.count }) }
    },
    process: {
      actions: [
        { type: "persistTurns", params: ({ event }) => ({ count: event.count }) },
        { type: "compress", params: { detailed: false } },
        "offerReview"
      ]
    },
    renew: {
      target: ".settling",
      actions: [
        { type: "persistTurns", params: ({ event }) => ({ count: event.count }) },
        { type: "startSettle", params: { detailed: true } },
        assign({ settlesInFlight: ({ context }) => context.settlesInFlight + 1 })
      ]
    },
    settle: {
      target: ".settling",
      actions: [
        { type: "persistTurns", params: ({ event }) => ({ count: event.count }) },
        { type: "startSettle", params: { detailed: true } },
        assign({ settlesInFlight: ({ context }) => context.settlesInFlight + 1 })
      ]
    }
  },
  states: {
    idle: {
      on: {
        new_dialog: { actions: "renderDialog" }
      }
    },
    settling: {
      on: {
        new_dialog: {
          actions: ["deferDialog", assign({ deferredDialogs: ({ context }) => context.deferredDialogs + 1 })]
        },
        "settle.done": [
          {
            guard: "lastSettle",
            target: "idle",
            actions: [
              "offerReview",
              { type: "releaseDialogs", params: ({ context }) => ({ count: context.deferredDialogs }) },
              assign({ settlesInFlight: 0, deferredDialogs: 0 })
            ]
          },
          {
            actions: [assign({ settlesInFlight: ({ context }) => context.settlesInFlight - 1 })]
          }
        ]
      }
    }
  }
})

export const SessionCommand = Schema.Union(
  Schema.Struct({ type: Schema.Literal("persistTurns"), params: Schema.Struct({ count: Schema.Number }) }),
  Schema.Struct({ type: Schema.Literal("compress"), params: Schema.Struct({ detailed: Schema.Boolean }) }),
  Schema.Struct({ type: Schema.Literal("startSettle"), params: Schema.Struct({ detailed: Schema.Boolean }) }),
  Schema.Struct({ type: Schema.Literal("offerReview") }),
  Schema.Struct({ type: Schema.Literal("renderDialog") }),
  Schema.Struct({ type: Schema.Literal("deferDialog") }),
  Schema.Struct({ type: Schema.Literal("releaseDialogs"), params: Schema.Struct({ count: Schema.Number }) })
)
export type SessionCommand = typeof SessionCommand.Type

export const decodeCommand = Schema.decodeUnknownOption(SessionCommand)
