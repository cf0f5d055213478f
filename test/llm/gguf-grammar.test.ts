/**
 * The translation of effect's JSON Schema output into node-llama-cpp's grammar subset: unions become `oneOf`,
 * `$defs` references are carried to the root, tuples keep their length, what the subset cannot say (patterns,
 * numeric bounds) is dropped rather than tightened, and an unknown value is any JSON.
 */
import { assert, describe, it } from "@effect/vitest"
import { JSONSchema, Schema } from "effect"
import { anyJson, grammarSchema } from "../../src/llm/gguf/Grammar.js"
import { answerJsonSchema } from "../../src/llm/JsonAnswer.js"

describe("grammar schema", () => {
  it("turns unions into oneOf and keeps enums, optional keys and closed objects", () => {
    const s = Schema.Struct({
      action: Schema.Literal("merge", "reject"),
      target: Schema.optional(Schema.NullOr(Schema.String)),
      score: Schema.Number.pipe(Schema.between(0, 1))
    })
    assert.deepStrictEqual(grammarSchema(JSONSchema.make(s)), {
      type: "object",
      properties: {
        action: { enum: ["merge", "reject"] },
        target: { oneOf: [{ type: "string" }, { type: "null" }] },
        score: { type: "number" }
      },
      required: ["action", "score"],
      additionalProperties: false
    })
  })

  it("carries $defs to the root, keeps tuple lengths and string lengths, drops patterns", () => {
    const s = Schema.Struct({
      ids: Schema.NonEmptyArray(Schema.Int),
      pair: Schema.Tuple(Schema.String, Schema.Boolean),
      code: Schema.String.pipe(Schema.pattern(/^[a-z]+$/), Schema.maxLength(8))
    })
    const g = grammarSchema(JSONSchema.make(s))
    assert.deepStrictEqual(g, {
      type: "object",
      properties: {
        ids: { type: "array", items: { $ref: "#/$defs/Int" }, minItems: 1 },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "boolean" }], minItems: 2, maxItems: 2 },
        code: { type: "string", maxLength: 8 }
      },
      required: ["ids", "pair", "code"],
      additionalProperties: false,
      $defs: { Int: { type: "integer" } }
    })
  })

  it("lets an unknown value be any JSON, and a record any key", () => {
    const s = Schema.Struct({
      summary: Schema.Unknown,
      counts: Schema.Record({ key: Schema.String, value: Schema.Number })
    })
    const g = grammarSchema(answerJsonSchema(s))
    assert.deepStrictEqual(g, {
      type: "object",
      properties: {
        summary: anyJson,
        counts: { type: "object", properties: {}, required: [], additionalProperties: { type: "number" } }
      },
      required: ["summary", "counts"],
      additionalProperties: false
    })
  })

  it("reads a recursive schema through its definition", () => {
    interface Tree {
      readonly v: number
      readonly kids: ReadonlyArray<Tree>
    }
    const Tree: Schema.Schema<Tree> = Schema.Struct({
      v: Schema.Number,
      kids: Schema.Array(Schema.suspend(() => Tree))
    }).annotations({ identifier: "Tree" })
    const g = grammarSchema(JSONSchema.make(Tree))
    assert.deepStrictEqual(g, {
      $ref: "#/$defs/Tree",
      $defs: {
        Tree: {
          type: "object",
          properties: { v: { type: "number" }, kids: { type: "array", items: { $ref: "#/$defs/Tree" } } },
          required: ["v", "kids"],
          additionalProperties: false
        }
      }
    })
  })
})
