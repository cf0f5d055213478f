import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { mentionedIn } from "../../src/persona/MentionIndex.js"
import { newEntry, type PersonaFile } from "../../src/persona/Persona.js"
import { Reflection } from "../../src/reflection/Reflection.js"

const entry = (id: string, text: string, protect = false) =>
  newEntry({ id, text, source: "manual", createdAt: "2026-12-01T10:00:00", protected: protect })
const reflection = (id: string, text: string, fields: Readonly<Record<string, unknown>> = {}) =>
  Schema.decodeUnknownSync(Reflection)({ id, text, created_at: "2026-12-01T10:00:00", status: "confirmed", ...fields })

const idsOf = (ms: ReturnType<typeof mentionedIn>) =>
  ms.map((m) => (m.kind === "persona" ? `${m.section}/${m.entry.id}` : `r/${m.reflection.id}`))

describe("mentions of a reply", () => {
  const persona: PersonaFile = {
    neko: { facts: [entry("n1", "Tian loves warm milk"), entry("card", "Tian has a bell collar", true)] },
    master: { facts: [entry("m1", "Alex climbs at the bouldering gym"), entry("m2", ""), entry("m3", "milk tea")] }
  }
  const reflections = [
    reflection("r1", "Alex drinks milk before bed"),
    reflection("r2", "Alex likes the gym", { suppress: true }),
    reflection("r3", "bouldering with friends", { status: "pending" })
  ]

  it("finds entries and confirmed reflections by any keyword, each once, entries first in file order", () => {
    const said = "warm milk after the bouldering gym? nya~"
    assert.deepStrictEqual(idsOf(mentionedIn(persona, reflections, ["Tian", "Alex"], said)), [
      "neko/n1",
      "master/m1",
      "master/m3",
      "r/r1"
    ])
    assert.deepStrictEqual(idsOf(mentionedIn(persona, reflections, ["Tian", "Alex"], "a bell collar")), [])
    assert.deepStrictEqual(
      idsOf(mentionedIn(persona, reflections, ["Tian", "Alex"], "tian")),
      [],
      "names are not keywords"
    )
  })

  it("indexes again for another reflections snapshot or other names", () => {
    const later = [...reflections, reflection("r4", "Tian hums old songs")]
    assert.deepStrictEqual(idsOf(mentionedIn(persona, later, ["Tian", "Alex"], "those songs")), ["r/r4"])
    assert.deepStrictEqual(idsOf(mentionedIn(persona, reflections, ["Tian", "Alex"], "those songs")), [])
    assert.deepStrictEqual(idsOf(mentionedIn(persona, later, [], "tian")), ["neko/n1", "r/r4"])
  })
})
