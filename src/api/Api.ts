/**
 * kioku's HTTP API, defined once: every route the server answers is an entry of this table (NekoRoutes.ts,
 * GroupRoutes.ts, KiokuRoutes.ts). The server mounts a handler per entry (http/Server.ts: a route without an entry
 * cannot be mounted, an entry without a handler does not type-check), OpenApi.ts derives `/openapi.json` and the
 * `/docs` page from it, and Client.ts the typed client. Adding a route is one entry here plus its handler.
 */
import type * as Schema from "effect/Schema"
import { groupRoutes } from "./GroupRoutes.js"
import { kiokuRoutes } from "./KiokuRoutes.js"
import { nekoRoutes } from "./NekoRoutes.js"
import type { PathParams, RouteDef } from "./Route.js"

export const api = { ...nekoRoutes, ...groupRoutes, ...kiokuRoutes } satisfies Readonly<Record<string, RouteDef>>
export type Api = typeof api
export type RouteName = keyof Api

/** The table's names in a stable order (N.E.K.O.'s routes first). */
export const routeNames = Object.keys(api) as ReadonlyArray<RouteName>

type Encoded<S> = S extends Schema.Schema<infer _A, infer I, never> ? I : never
type Decoded<S> = S extends Schema.Schema<infer A, infer _I, never> ? A : never

/** What a client call of route `R` takes: its path parameters, `query` and `body` (both wire-encoded). */
export type Input<R extends RouteDef> = PathParams<R["path"]> &
  (R extends { readonly query: infer Q } ? { readonly query?: Encoded<Q> } : unknown) &
  (R extends { readonly body: infer B }
    ? R extends { readonly bodyOptional: true }
      ? { readonly body?: Encoded<B> }
      : { readonly body: Encoded<B> }
    : unknown)

/** What a successful call of route `R` answers: the decoded JSON, or the text. */
export type Output<R extends RouteDef> =
  | (R extends { readonly json: infer J } ? Decoded<J> : never)
  | (R extends { readonly text: string } ? string : never)

/** Whether a call of `R` needs an argument at all (path parameters or a required body). */
export type NeedsInput<R extends RouteDef> = R["path"] extends `${string}{${string}`
  ? true
  : R extends { readonly body: unknown }
    ? R extends { readonly bodyOptional: true }
      ? false
      : true
    : false
