/**
 * Related context for reflection synthesis (neko-compat §4.4, §4.11): for each selected fact, the three
 * nearest existing observations (live reflections and non-protected persona entries) by cosine over cached
 * vectors, their union capped at 20, in first-seen order. Empty without a model or on any failure, as in
 * N.E.K.O. without vectors. A group-chat subject's synthesis sees only that subject's reflections and persona
 * entries; a private synthesis only the private ones.
 */
import { Effect, Option } from "effect"
import { Embedder } from "../vectors/Embedder.js"
import { cosine } from "./evidence/Rerank.js"
import type { Tunables } from "../Tunables.js"
import type { ReflectionHost } from "./ReflectionHost.js"
import { vectorsFor } from "../vectors/VectorBackfill.js"
import { privateView } from "../persona/Persona.js"
import { isLegacyPrivate, stampedWith, type MemorySubject } from "../domain/Subject.js"

export const relatedContext = (
  state: ReflectionHost,
  queries: ReadonlyArray<string>,
  t: Tunables,
  subject?: MemorySubject
): Effect.Effect<ReadonlyArray<string>, never, Embedder> =>
  Effect.gen(function* () {
    const embedder = yield* Embedder
    if (queries.length === 0 || Option.isNone(yield* embedder.modelId)) return []
    const persona = yield* state.persona.load
    const inside = subject === undefined ? isLegacyPrivate : stampedWith([subject])
    const observations = [
      ...(yield* state.reflections.loadAll)
        .filter((r) => inside(r) && (r.status === "pending" || r.status === "confirmed") && r.text.trim() !== "")
        .map((r) => ({ kind: "reflection" as const, id: r.id, text: r.text })),
      ...Object.values(subject === undefined ? privateView(persona) : persona).flatMap((s) =>
        s.facts
          .filter((e) => inside(e) && !e.protected && e.text.trim() !== "")
          .map((e) => ({ kind: "persona" as const, id: e.id, text: e.text }))
      )
    ]
    const cached = yield* vectorsFor(state, observations)
    const pool = observations.flatMap((o) => {
      const v = cached.get(o.id)
      return v === undefined ? [] : [{ text: o.text, v }]
    })
    if (pool.length === 0) return []
    const vectors = yield* embedder.embed(queries)
    const picked: Array<string> = []
    for (const q of vectors) {
      if (q === undefined) continue
      const top = pool
        .map((o) => ({ text: o.text, c: cosine(q, o.v) }))
        .sort((a, b) => b.c - a.c)
        .slice(0, t.reflection_related_per_query_k)
      for (const { text } of top) if (!picked.includes(text)) picked.push(text)
    }
    return picked.slice(0, t.reflection_related_total_cap)
  }).pipe(Effect.catchAll(() => Effect.succeed([])))
