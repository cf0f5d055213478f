/**
 * The typed client (src/api/Client.ts) pointed at a test server, with a record of the methods a suite called,
 * so a suite can check it exercised every route of its part of the route table.
 */
import { createClient, type KiokuClient, type Reply } from "../../src/api/Client.js"
import { api, routeNames, type RouteName } from "../../src/api/Api.js"
import { assert } from "@effect/vitest"

export const trackedClients = () => {
  const called = new Set<string>()
  const clientFor = (baseUrl: string, token?: string): KiokuClient =>
    new Proxy(createClient({ baseUrl, ...(token === undefined ? {} : { token }) }), {
      get: (target, key, receiver) => {
        if (typeof key === "string") called.add(key)
        return Reflect.get(target, key, receiver)
      }
    })
  /** The table's routes (those `which` selects) no test of the suite called. */
  const uncalled = (which: (name: RouteName) => boolean): ReadonlyArray<RouteName> =>
    routeNames.filter((n) => which(n) && !called.has(n))
  return { clientFor, uncalled, tagOf: (name: RouteName) => api[name].tag }
}

/** The value of a successful reply (the test fails with the error otherwise). */
export const value = <A>(reply: Reply<A>): A => {
  if (!reply.ok) assert.fail(`expected success, got ${reply.error.reason} ${reply.status}: ${reply.error.message}`)
  return reply.value
}

/** The error of a failed reply: its reason, status and body. */
export const refusal = <A>(reply: Reply<A>) => {
  if (reply.ok) return assert.fail(`expected a refusal, got ${reply.status}: ${JSON.stringify(reply.value)}`)
  return { reason: reply.error.reason, status: reply.status, body: reply.error.body }
}
