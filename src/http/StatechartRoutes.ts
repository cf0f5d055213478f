/**
 * The state-chart view (product §3 item 7): `GET /statecharts` (the page), and under
 * `/api/memory/statecharts`: `characters` (the character directories), `{name}` (entry counts per state of
 * each machine, and the live actor's session and recent-memory states when the character is loaded — an unloaded character is
 * not woken), `{name}/entries?machine=&state=` and `{name}/history/{entryId}`. Counts and entries are read
 * from the character's files (see statecharts/Live.ts); an invalid name is a 400 like every character route.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Clock, Effect, Either, Option } from "effect"
import type { Health } from "../runtime/Actor.js"
import { CharacterRegistry } from "../character/CharacterRegistry.js"
import { KiokuConfig } from "../Config.js"
import { validateCharacterName, type CharacterName } from "../domain/CharacterName.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import { MemoryService } from "../MemoryService.js"
import { graphs, machineNames } from "../statecharts/Graph.js"
import * as Live from "../statecharts/Live.js"
import { statechartsPage } from "../statecharts/Page.js"
import { detail, operationFailed, validation, wire } from "./Responses.js"
import * as Wire from "../browser/Wire.js"
import { api } from "../api/Api.js"

const stateNames = Object.fromEntries(graphs().map((g) => [g.id, g.states.map((s) => s.id)]))
const EntriesQuery = api.statechartEntries.query

const named = Effect.map(HttpRouter.params, (p) => validateCharacterName(p["name"] ?? ""))

/** The live actor's session and recent-memory states; null when the character is not loaded. */
const liveOf = (name: CharacterName) =>
  Effect.gen(function* () {
    const active = yield* (yield* CharacterRegistry).active
    if (!active.includes(name)) return null
    return yield* (yield* MemoryService).status(name).pipe(
      Effect.map((s) => ({ session: s.session, recent: s.recent })),
      Effect.orElseSucceed(() => null)
    )
  })
const sessionOf = (name: CharacterName) => Effect.map(liveOf(name), (live) => live?.session ?? null)
const oneLive = (states: ReadonlyArray<string>, live: string | null) =>
  Object.fromEntries(states.map((s) => [s, s === live ? 1 : 0]))

const supervisionOf = (h: Health) =>
  h._tag === "Running" ? ("running" as const) : h._tag === "Restarting" ? ("restarting" as const) : ("parked" as const)

const liveEntries = (name: string) =>
  Effect.gen(function* () {
    const { dataDir, tunables } = yield* KiokuConfig
    return yield* Live.entries(Live.characterDir(dataDir, name), tunables, yield* Clock.currentTimeMillis)
  })

const failed = (e: { readonly _tag: string; readonly message: string }) =>
  Effect.logWarning("statecharts read failed").pipe(
    Effect.annotateLogs({ error: e._tag }),
    Effect.as(operationFailed(e.message))
  )

export const statechartHandlers = {
  statechartsPage: Effect.sync(() => HttpServerResponse.html(statechartsPage())),
  liveActors: Effect.gen(function* () {
    const names = [...(yield* (yield* CharacterRegistry).active)].sort()
    const registry = yield* CharacterRegistry
    const actors = yield* Effect.forEach(names, (name) =>
      Effect.zipWith(sessionOf(name), registry.health(name), (session, health) => ({
        name,
        session,
        supervision: Option.match(health, { onNone: () => null, onSome: supervisionOf })
      }))
    )
    return wire(Wire.LiveActors, { actors })
  }),
  statechartCharacters: Effect.gen(function* () {
    const { dataDir } = yield* KiokuConfig
    return yield* CharacterDirs.list(dataDir).pipe(
      Effect.map((characters) => wire(Wire.Characters, { characters })),
      Effect.catchAll(failed)
    )
  }),
  statechartCounts: Effect.gen(function* () {
    const name = yield* named
    if (Either.isLeft(name)) return detail(400, name.left.detail)
    const all = yield* liveEntries(name.right)
    const live = yield* liveOf(name.right)
    return wire(Wire.StateCounts, {
      name: name.right,
      session: live?.session ?? null,
      recent: live?.recent ?? null,
      machines: {
        reflection: Live.countBy(all, "reflection", stateNames["reflection"] ?? []),
        persona: Live.countBy(all, "persona", stateNames["persona"] ?? []),
        session: oneLive(stateNames["session"] ?? [], live?.session ?? null),
        recent: oneLive(stateNames["recent"] ?? [], live?.recent ?? null)
      }
    })
  }).pipe(Effect.catchTags({ StoreError: failed, ViewDecodeError: failed })),
  statechartEntries: Effect.gen(function* () {
    const name = yield* named
    if (Either.isLeft(name)) return detail(400, name.left.detail)
    const query = yield* Effect.either(HttpServerRequest.schemaSearchParams(EntriesQuery))
    if (Either.isLeft(query))
      return validation(["query", "machine"], `machine must be one of ${machineNames.join(", ")}`, "value_error")
    const { machine, state } = query.right
    if (!(stateNames[machine] ?? []).includes(state))
      return validation(["query", "state"], `state must be a state of ${machine}`, "value_error")
    if (machine === "session" || machine === "recent") {
      const live = yield* liveOf(name.right)
      return wire(Wire.StateEntries, {
        entries: live?.[machine] === state ? [{ id: name.right, text: `live ${machine} actor`, score: null }] : []
      })
    }
    const all = yield* liveEntries(name.right)
    return wire(Wire.StateEntries, {
      entries: all
        .filter((e) => e.machine === machine && e.state === state)
        .map((e) => ({
          id: e.id,
          text: e.text,
          score: e.score,
          ...(e.section === undefined ? {} : { section: e.section })
        }))
    })
  }).pipe(Effect.catchTags({ StoreError: failed, ViewDecodeError: failed })),
  statechartHistory: Effect.gen(function* () {
    const name = yield* named
    if (Either.isLeft(name)) return detail(400, name.left.detail)
    const entryId = (yield* HttpRouter.params)["entryId"] ?? ""
    const { dataDir } = yield* KiokuConfig
    const history = yield* Live.history(Live.characterDir(dataDir, name.right), entryId)
    return wire(Wire.History, { id: entryId, history })
  }).pipe(Effect.catchTags({ StoreError: failed }))
}
