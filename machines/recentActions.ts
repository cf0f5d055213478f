/**
 * The typed actions `recent.ts` emits, as a Schema: the actor decodes each emitted action with it and
 * carries out the ones it knows (src/recent/RecentLifecycle.ts).
 */
import { Schema } from "effect"

const Generation = Schema.Struct({ generation: Schema.Number })
export const RecentCommand = Schema.Union(
  Schema.Struct({
    type: Schema.Literal("startCompression"),
    params: Schema.Struct({ detailed: Schema.Boolean, generation: Schema.Number })
  }),
  Schema.Struct({ type: Schema.Literal("waitFor"), params: Generation }),
  Schema.Struct({ type: Schema.Literal("answer") }),
  Schema.Struct({ type: Schema.Literal("commitCompression") }),
  Schema.Struct({ type: Schema.Literal("release"), params: Generation }),
  Schema.Struct({ type: Schema.Literal("resumeQueue") }),
  Schema.Struct({ type: Schema.Literal("hardCap") }),
  Schema.Struct({
    type: Schema.Literal("retryLater"),
    params: Schema.Struct({ detailed: Schema.Boolean, attempts: Schema.Number, deadLettered: Schema.Boolean })
  }),
  Schema.Struct({ type: Schema.Literal("checkReview") }),
  Schema.Struct({ type: Schema.Literal("startReview"), params: Generation }),
  Schema.Struct({ type: Schema.Literal("cancelReview") }),
  Schema.Struct({ type: Schema.Literal("commitReview") }),
  Schema.Struct({ type: Schema.Literal("scheduleIdleCheck") }),
  Schema.Struct({ type: Schema.Literal("compressIdle") })
)
export type RecentCommand = typeof RecentCommand.Type
export const decodeRecentCommand = Schema.decodeUnknownOption(RecentCommand)
