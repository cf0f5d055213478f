/**
 * The messages between the in-process model tier (main thread) and its engine worker, as Schemas both sides
 * decode with. Each request carries an id its reply repeats; `log` lines flow from the worker unasked.
 */
import { Schema } from "effect"

export const WorkerSettings = Schema.Struct({
  threads: Schema.Number,
  contextTokens: Schema.Number,
  models: Schema.Number
})
export type WorkerSettings = typeof WorkerSettings.Type

const Message = Schema.Struct({
  role: Schema.Literal("system", "user", "assistant"),
  content: Schema.String
})

export const ToWorker = Schema.Union(
  Schema.TaggedStruct("load", { id: Schema.Number, file: Schema.String }),
  Schema.TaggedStruct("generate", {
    id: Schema.Number,
    file: Schema.String,
    messages: Schema.Array(Message),
    maxTokens: Schema.Number,
    /** The answer's JSON Schema as the task wrote it; the worker turns it into a grammar. */
    jsonSchema: Schema.optional(Schema.Unknown)
  }),
  Schema.TaggedStruct("abort", { id: Schema.Number }),
  Schema.TaggedStruct("close", { id: Schema.Number })
)
export type ToWorker = typeof ToWorker.Type

export const FromWorker = Schema.Union(
  Schema.TaggedStruct("loaded", { id: Schema.Number, template: Schema.String, contextTokens: Schema.Number }),
  Schema.TaggedStruct("failed", {
    id: Schema.Number,
    reason: Schema.Literal("unavailable", "engine", "prompt_too_long"),
    message: Schema.String
  }),
  Schema.TaggedStruct("generated", {
    id: Schema.Number,
    text: Schema.String,
    promptTokens: Schema.Number,
    completionTokens: Schema.Number,
    stop: Schema.Literal("done", "length"),
    grammar: Schema.Literal("schema", "none", "failed"),
    grammarError: Schema.optional(Schema.String)
  }),
  Schema.TaggedStruct("closed", { id: Schema.Number }),
  Schema.TaggedStruct("log", { level: Schema.Literal("debug", "warning"), message: Schema.String })
)
export type FromWorker = typeof FromWorker.Type
export type Reply = Exclude<FromWorker, { readonly _tag: "log" }>
