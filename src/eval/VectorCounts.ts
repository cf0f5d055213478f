/**
 * How many vectors an evaluated character ended with, read from its `vectors.db` and `turn_vectors.db`
 * (read-only; a missing file counts none), so a run's progress shows whether recall had its vector side.
 */
import Database from "better-sqlite3"
import { Effect, Schema } from "effect"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { EvalError } from "./Provenance.js"

export interface VectorCounts {
  readonly memories: number
  readonly turns: number
  readonly modelIds: ReadonlyArray<string>
}

const Counted = Schema.Array(Schema.Struct({ model_id: Schema.String, n: Schema.Number }))
const decodeCounted = Schema.decodeUnknownSync(Counted)

const count = (file: string, sql: string) => {
  if (!existsSync(file)) return []
  const db = new Database(file, { readonly: true })
  try {
    return decodeCounted(db.prepare(sql).all())
  } finally {
    db.close()
  }
}

export const vectorCounts = (characterDir: string): Effect.Effect<VectorCounts, EvalError> =>
  Effect.try({
    try: () => {
      const memories = count(
        path.join(characterDir, "vectors.db"),
        "SELECT model_id, COUNT(*) AS n FROM vectors GROUP BY model_id"
      )
      const turns = count(
        path.join(characterDir, "turn_vectors.db"),
        "SELECT model_id, COUNT(*) AS n FROM turn_vectors WHERE dim > 0 GROUP BY model_id"
      )
      const all = [...memories, ...turns]
      return {
        memories: memories.reduce((a, r) => a + r.n, 0),
        turns: turns.reduce((a, r) => a + r.n, 0),
        modelIds: [...new Set(all.map((r) => r.model_id))]
      }
    },
    catch: (e) => new EvalError({ message: `vector counts: ${e instanceof Error ? e.message : String(e)}` })
  })
