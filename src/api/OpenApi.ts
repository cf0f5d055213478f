/**
 * The OpenAPI 3.1 document of the route table (served at `/openapi.json`, rendered at `/docs`): per entry an
 * operation named by its table key, with its path and query parameters, its JSON body and its answers, each
 * schema derived from the entry's effect/Schema by `JSONSchema.fromAST` (the wire-encoded side, extra fields
 * allowed since N.E.K.O.'s bodies carry more than kioku reads). Every error answer shares `ErrorAnswer`.
 */
import * as JSONSchema from "effect/JSONSchema"
import type * as Schema from "effect/Schema"
import { api, routeNames } from "./Api.js"
import { pathParams, type RouteDef } from "./Route.js"
import { ErrorAnswer } from "./Schemas.js"

type JsonObject = Readonly<Record<string, unknown>>

const tags = [
  { name: "neko", description: "N.E.K.O.'s memory-server contract (its wire quirks included)" },
  { name: "memory-api", description: "N.E.K.O.'s main-server /api/memory routes the memory browser uses" },
  { name: "browser", description: "the memory browser's and the state charts' reads and edits" },
  { name: "operations", description: "maintenance and limited mode" },
  { name: "pages", description: "HTML pages, their scripts and this document" }
] as const

const common = {
  "403": "a foreign Host or Origin, or no token when the server asks for one",
  "409": "storage_startup_blocked: limited mode during startup recovery",
  "413": "a body over the size limit"
} as const

/**
 * Without the `$id`s effect gives its built-in schemas (`/schemas/unknown`, …): one `$id` may appear only once
 * in a JSON Schema 2020-12 document, and these appear wherever `unknown` does.
 */
const withoutIds = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(withoutIds)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (k === "$id" ? [] : [[k, withoutIds(v)]])))
      : value

export const openApiDocument = (version: string): JsonObject => {
  const definitions: Record<string, JSONSchema.JsonSchema7> = {}
  const schemaOf = (s: Schema.Schema.AnyNoContext): unknown =>
    withoutIds(
      JSONSchema.fromAST(s.ast, {
        definitions,
        definitionPath: "#/components/schemas/",
        target: "openApi3.1",
        additionalPropertiesStrategy: "allow"
      })
    )
  const errorRef = { $ref: "#/components/schemas/ErrorAnswer" }
  const errorAnswer = (description: string) => ({
    description,
    content: { "application/json": { schema: errorRef } }
  })
  const queryParams = (query: Schema.Schema.AnyNoContext | undefined) => {
    if (query === undefined) return []
    const s = JSONSchema.fromAST(query.ast, { definitions, target: "openApi3.1" })
    const properties = "properties" in s ? s.properties : {}
    const required: ReadonlyArray<string> = "required" in s ? s.required : []
    return Object.entries(properties).map(([name, schema]) => ({
      name,
      in: "query",
      required: required.includes(name),
      schema: withoutIds(schema)
    }))
  }
  const operation = (name: string, def: RouteDef) => {
    const content: Record<string, unknown> = {}
    if (def.json !== undefined) content["application/json"] = { schema: schemaOf(def.json) }
    if (def.text !== undefined) content[def.text] = { schema: { type: "string" } }
    const errors = Object.entries({ ...common, ...def.errors }).flatMap(([status, what]) =>
      what === undefined ? [] : [[status, errorAnswer(what)] as const]
    )
    return {
      operationId: name,
      tags: [def.tag],
      summary: def.summary,
      parameters: [
        ...pathParams(def.path).map((p) => ({ name: p, in: "path", required: true, schema: { type: "string" } })),
        ...queryParams(def.query)
      ],
      ...(def.body === undefined
        ? {}
        : {
            requestBody: {
              required: def.bodyOptional !== true,
              content: { "application/json": { schema: schemaOf(def.body) } }
            }
          }),
      responses: { "200": { description: def.summary, content }, ...Object.fromEntries(errors) }
    }
  }
  const paths: Record<string, Record<string, unknown>> = {}
  for (const name of routeNames) {
    const def: RouteDef = api[name]
    paths[def.path] = { ...paths[def.path], [def.method.toLowerCase()]: operation(name, def) }
  }
  const errorSchema = schemaOf(ErrorAnswer)
  return {
    openapi: "3.1.0",
    info: {
      title: "kioku",
      version,
      description:
        "Long-term memory for AI companion characters: N.E.K.O.'s memory-server routes and kioku's own. " +
        'A failed memory operation on a N.E.K.O. route answers HTTP 200 with status "error".'
    },
    tags,
    paths,
    components: { schemas: { ...(withoutIds(definitions) as JsonObject), ErrorAnswer: errorSchema } }
  }
}
