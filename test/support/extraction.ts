/**
 * Table-driven checks of the `local` extraction engine: each row is a sentence, the fact text expected
 * (null: no fact), its entity and its importance band, run through the real engine with wink-nlp loaded.
 */
import { Effect } from "effect"
import { assert } from "@effect/vitest"
import { loadEnglish } from "../../src/domain/EnglishNlp.js"
import { extractFacts, type Extracted, type Utterance } from "../../src/facts/local/LocalFacts.js"

export const names = { master: "Master", character: "Tian" }

export type Band = "high" | "mid" | "low"
export type Row = readonly [input: string, text: string | null, entity?: Extracted["entity"], band?: Band]

export const bandOf = (importance: number): Band => (importance >= 7 ? "high" : importance >= 5 ? "mid" : "low")

const loaded = Effect.runPromise(loadEnglish)
/** wink-nlp, loaded once for all the tests of a file (as the memory tasks load it once). */
export const english = Effect.promise(() => loaded)

export const extract = (utterances: ReadonlyArray<Utterance>) =>
  Effect.map(english, (nlp) => extractFacts(utterances, names, nlp))

/** Runs every row as its own utterance by `speaker` and checks text, entity and band. */
export const checkRows = (rows: ReadonlyArray<Row>, speaker: Utterance["speaker"] = "human") =>
  Effect.gen(function* () {
    for (const [input, text, entity, band] of rows) {
      const facts = yield* extract([{ speaker, text: input }])
      if (text === null) {
        assert.deepStrictEqual(
          facts.map((f) => f.text),
          [],
          `no fact expected from ${JSON.stringify(input)}`
        )
        continue
      }
      const fact = facts.find((f) => f.text === text)
      assert.isDefined(fact, `${JSON.stringify(input)} gave ${JSON.stringify(facts.map((f) => f.text))}`)
      if (entity !== undefined) assert.strictEqual(fact?.entity, entity, `entity of ${JSON.stringify(input)}`)
      if (band !== undefined) {
        assert.strictEqual(
          bandOf(fact?.importance ?? 0),
          band,
          `importance ${fact?.importance} of ${JSON.stringify(input)}`
        )
      }
    }
  })
