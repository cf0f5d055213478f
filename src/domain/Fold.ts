/** Folding of recall texts to Simplified Chinese, a batch of texts per converter call (NUL-joined). */
import { Effect } from "effect"
import type { ChineseScript } from "./ChineseScript.js"

const FOLD_BATCH = 1000

export const makeFold =
  (script: ChineseScript["Type"]) =>
  (texts: ReadonlyArray<string>): Effect.Effect<Array<string>> =>
    Effect.gen(function* () {
      const out: Array<string> = []
      for (let i = 0; i < texts.length; i += FOLD_BATCH) {
        const batch = texts.slice(i, i + FOLD_BATCH)
        const joined = batch.some((x) => x.includes("\u0000")) ? undefined : batch.join("\u0000")
        const parts = joined === undefined ? [] : (yield* script.toSimplified(joined)).split("\u0000")
        if (parts.length === batch.length) out.push(...parts)
        else out.push(...(yield* Effect.forEach(batch, script.toSimplified)))
      }
      return out
    })
