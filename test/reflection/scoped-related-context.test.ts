/**
 * The related-context block of a group-chat subject's synthesis, with the default embedding model: only the
 * subject's own observations are candidates, never a private reflection or another subject's entry.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Either, Layer, Option, TestClock } from "effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { makeSubject, personaSectionKey, subjectFields } from "../../src/domain/Subject.js"
import { newEntry } from "../../src/persona/Persona.js"
import { Embedder } from "../../src/vectors/Embedder.js"
import * as OnnxEmbedder from "../../src/vectors/OnnxEmbedder.js"
import { MIGRATED } from "../support/crashReplay.js"
import * as ScriptedLlm from "../support/ScriptedLlm.js"
import { boot, setPowerful, testSettings } from "../support/layers.js"
import { embedderOptions, sharedDefaultModel } from "../vectors/fixtures.js"

const GROUP = Either.getOrThrow(makeSubject("group_chat", "qq:100"))
const OTHER = Either.getOrThrow(makeSubject("group_chat", "qq:200"))
const AT = "2026-11-01T12:00:00.000000"
const entry = (id: string, text: string) => newEntry({ id, text, source: "manual", createdAt: AT })

describe("related context of a subject's synthesis", () => {
  it.scoped(
    "offers the subject's own observations only",
    () =>
      Effect.gen(function* () {
        const modelDir = yield* sharedDefaultModel
        const settings = testSettings({ vectors_enabled: true })
        setPowerful(settings, false)
        const dir = path.join(settings.dataDir, "Ctx")
        mkdirSync(dir, { recursive: true })
        writeFileSync(
          path.join(dir, "reflections.json"),
          JSON.stringify([{ id: "ref_private", text: "Master hikes in the mountains every weekend.", created_at: AT }])
        )
        writeFileSync(
          path.join(dir, "persona.json"),
          JSON.stringify({
            __meta__: MIGRATED,
            master: { facts: [entry("manual_p", "Master climbs mountain trails with friends.")] },
            [personaSectionKey(GROUP)]: {
              facts: [{ ...entry("manual_g", "The group treks mountain trails on Sundays."), ...subjectFields(GROUP) }]
            },
            [personaSectionKey(OTHER)]: {
              facts: [{ ...entry("manual_o", "The band hikes mountain paths after gigs."), ...subjectFields(OTHER) }]
            }
          })
        )
        yield* TestClock.setTime(new Date(2026, 10, 30, 12).getTime())
        const service = yield* OnnxEmbedder.make(embedderOptions(Option.some(modelDir)))
        const { script, layer } = yield* ScriptedLlm.make
        const memory = yield* boot(settings, { embedder: Layer.succeed(Embedder, service), llm: layer })
        yield* memory.maintainNow("Ctx")
        yield* memory.scopedWrite("Ctx", [
          {
            subject: GROUP,
            candidates: [
              "Alice hikes mountain trails at dawn",
              "Bob hikes mountain trails in summer",
              "Carla hikes mountain trails with her dog",
              "Dana hikes mountain trails near the lake",
              "Emil hikes mountain trails every month"
            ].map((text) => ({ text, importance: 6, source: "user_observation" as const }))
          }
        ])
        yield* memory.maintainNow("Ctx")
        const asked = (yield* script.requests).filter((r) => r.task === "reflection.synthesize")
        assert.strictEqual(asked.length, 1)
        const prompt = JSON.stringify(asked[0])
        assert.include(prompt, "The group treks mountain trails on Sundays.")
        for (const other of [
          "Master hikes in the mountains",
          "Master climbs mountain trails",
          "The band hikes mountain paths"
        ])
          assert.notInclude(prompt, other)
      }),
    120_000
  )
})
