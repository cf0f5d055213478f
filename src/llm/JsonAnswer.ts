/**
 * Tolerant reading of a model's JSON answer: code fences, prose before or after, and trailing commas are
 * forgiven; the result is then decoded with the task's Schema. A bad answer is a typed failure. Also the JSON
 * Schema of a task's answer, sent with the request (an in-process model samples under its grammar).
 */
import { Either, JSONSchema, Schema } from "effect"

const fence = /```(?:json|JSON)?\s*([\s\S]*?)```/

/** The JSON text inside a model answer, best effort. */
export const extractJson = (answer: string): string => {
  const fenced = fence.exec(answer)
  let text = (fenced?.[1] ?? answer).trim()
  const start = text.search(/[[{]/)
  if (start > 0) text = text.slice(start)
  const open = text[0]
  const close = open === "[" ? "]" : open === "{" ? "}" : undefined
  if (close !== undefined) {
    const end = text.lastIndexOf(close)
    if (end > 0) text = text.slice(0, end + 1)
  }
  return text.replace(/,\s*([}\]])/g, "$1")
}

export const decodeAnswer = <A, I>(schema: Schema.Schema<A, I>) => {
  const decode = Schema.decodeUnknownEither(Schema.parseJson(schema))
  return (answer: string): Either.Either<A, string> =>
    Either.mapLeft(decode(extractJson(answer)), (e) => e.message.split("\n")[0] ?? "answer does not decode")
}

const jsonSchemas = new WeakMap<object, JSONSchema.JsonSchema7Root | null>()

/** The JSON Schema of what the model writes (the Schema's encoded side), or undefined when it has none. */
export const answerJsonSchema = (schema: Schema.Schema.Any): JSONSchema.JsonSchema7Root | undefined => {
  let cached = jsonSchemas.get(schema)
  if (cached === undefined) {
    try {
      cached = JSONSchema.make(schema)
    } catch {
      cached = null
    }
    jsonSchemas.set(schema, cached)
  }
  return cached ?? undefined
}
