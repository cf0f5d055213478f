/**
 * One entry of the route table (Api.ts): method, path (OpenAPI `{param}` syntax), the query and body Schemas,
 * the answer (a JSON Schema, a text content type, or both when a query switches it), the error statuses worth
 * naming and a summary. The server mounts handlers by these entries, OpenAPI and the docs page describe them
 * and the client's methods are typed by them. Browser-safe: effect/Schema only.
 */
import * as Rec from "effect/Record"
import * as Schema from "effect/Schema"

export type Method = "GET" | "POST" | "PUT"
export type TextType = "text/plain" | "text/html" | "text/javascript"

export interface RouteDef {
  readonly method: Method
  readonly path: string
  /** The OpenAPI tag: `neko` for N.E.K.O.'s contract, else kioku's own groups. */
  readonly tag: "neko" | "memory-api" | "browser" | "operations" | "pages"
  readonly summary: string
  readonly query?: Schema.Schema.AnyNoContext
  readonly body?: Schema.Schema.AnyNoContext
  /** The body may be left out (the handler reads an empty body as `{}`). */
  readonly bodyOptional?: true
  /** The JSON answer on success; with `text` too, a query parameter chooses (e.g. `?format=markdown`). */
  readonly json?: Schema.Schema.AnyNoContext
  readonly text?: TextType
  /** Error statuses and what they mean (every route may also answer 403, 409 limited mode, 413 and 500). */
  readonly errors?: Readonly<Partial<Record<`${number}`, string>>>
}

/** Keeps the entry's literal types (path, schemas), so the client can be typed from it. */
export const route = <const R extends RouteDef>(r: R): R => r

/** `/cache/{name}` → `/cache/:name`, the router's syntax. */
export const routerPath = (path: string): `/${string}` => `/${path.slice(1).replace(/\{([^}]+)\}/g, ":$1")}`

/** The names of a path's parameters, in order. */
export const pathParams = (path: string): ReadonlyArray<string> =>
  [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? "")

/** The path parameters of a path as a type: `"/a/{x}/b/{y}"` → `{ x: string; y: string }`. */
export type PathParams<P extends string> = P extends `${string}{${infer K}}${infer Rest}`
  ? { readonly [k in K]: string } & PathParams<Rest>
  : unknown

/**
 * The same fields with any value, each optional: what a handler decodes first when N.E.K.O. answers a wrong
 * field with its own message (or ignores it) instead of the model's 422.
 */
export const lenient = <F extends Schema.Struct.Fields>(
  schema: Schema.Struct<F>
): Schema.Struct<{ readonly [K in keyof F]: Schema.optional<typeof Schema.Unknown> }> =>
  Schema.Struct(Rec.map(schema.fields, () => Schema.optional(Schema.Unknown))) as Schema.Struct<{
    readonly [K in keyof F]: Schema.optional<typeof Schema.Unknown>
  }>
