/**
 * `reflections.json` for one character: decoded with defaults, upserted by id in one atomic write when
 * `reflection.*` journal events apply. Never overwritten when it does not decode.
 */
import { Effect, Option } from "effect"
import * as path from "node:path"
import { writeAtomic } from "../../store/DurableFs.js"
import * as ViewFile from "../../store/ViewFile.js"
import { ReflectionsFile, type Reflection } from "./Reflection.js"

export const make = (dir: string) => {
  const view = ViewFile.make(ReflectionsFile, path.join(dir, "reflections.json"))
  const load = view.read.pipe(Effect.map(Option.getOrElse((): ReadonlyArray<Reflection> => [])))
  const upsert = (changed: ReadonlyArray<Reflection>) =>
    Effect.gen(function* () {
      if (changed.length === 0) return
      const current = yield* load
      const byId = new Map(changed.map((r) => [r.id, r]))
      const known = new Set(current.map((r) => r.id))
      const next = [...current.map((r) => byId.get(r.id) ?? r), ...changed.filter((r) => !known.has(r.id))]
      yield* writeAtomic(view.file, ViewFile.encodeJson(next))
    })
  return { file: view.file, load, upsert }
}

export type ReflectionStore = ReturnType<typeof make>
