/**
 * `GET /api/memory/browser/{name}` with group-chat memory: the top-level lists stay private (no stamped fact,
 * archived fact, reflection or persona entry, no `@subject/…` section), and `subjects` holds each subject's
 * own rows in the same item shapes, with the display name `scoped_facts` recorded; after `scoped_forget` the
 * subject is gone from the view while the other subject and the private memory stay.
 */
import { assert, describe, it } from "@effect/vitest"
import * as path from "node:path"
import { get, post, serverSuite } from "../support/server.js"
import { GROUP, GROUP_TEXT, MEMBER, MEMBER_TEXT, seedSubjects, writeSubjectFacts } from "../support/subjectSeed.js"

interface Item {
  readonly id: string
  readonly text: string
  readonly [field: string]: unknown
}
interface Lists {
  readonly facts: ReadonlyArray<Item>
  readonly archived_facts: ReadonlyArray<Item>
  readonly reflections: ReadonlyArray<Item & { readonly status: string }>
  readonly persona: ReadonlyArray<{ readonly section: string; readonly entries: ReadonlyArray<Item> }>
}
interface Subject extends Lists {
  readonly subject_kind: string
  readonly subject_id: string
  readonly scope: string
  readonly display_name: string | null
}
type View = Lists & { readonly subjects: ReadonlyArray<Subject> }

const texts = (l: Lists) => [
  ...l.facts.map((f) => f.text),
  ...l.archived_facts.map((f) => f.text),
  ...l.reflections.map((r) => r.text),
  ...l.persona.flatMap((s) => s.entries.map((e) => e.text))
]

describe("the memory browser's subjects", () => {
  const { temp, start } = serverSuite()

  it("keeps the private lists private and lists each subject's memory with its display name", async () => {
    seedSubjects(path.join(temp.memory, "Tian"))
    const server = await start(temp.memory)
    await writeSubjectFacts(server.url)
    const read = async (): Promise<View> => {
      const r = await get(`${server.url}/api/memory/browser/Tian`)
      assert.strictEqual(r.status, 200, r.text)
      return JSON.parse(r.text)
    }
    const view = await read()

    assert.deepStrictEqual(
      view.facts.map((f) => f.id),
      ["fact_20261101090000_aaaa0001", "fact_20261101090000_aaaa0002", "fact_20261101090000_aaaa0003"]
    )
    assert.deepStrictEqual(
      view.archived_facts.map((f) => f.id),
      ["fact_20260901090000_bbbb0002", "fact_20250101090000_bbbb0001"]
    )
    assert.sameMembers(
      view.reflections.map((r) => r.id),
      ["ref_p1", "ref_p2", "ref_c1", "ref_d1", "ref_a1"]
    )
    assert.deepStrictEqual(
      view.persona.map((s) => s.section),
      ["neko", "master", "relationship"].filter((s) => view.persona.some((p) => p.section === s))
    )
    assert.deepStrictEqual(
      view.persona.find((s) => s.section === "master")?.entries.map((e) => e.id),
      ["manual_1", "manual_2"]
    )
    const subjectTexts = [...Object.values(GROUP_TEXT), ...Object.values(MEMBER_TEXT), "The chess club plays blitz"]
    for (const text of subjectTexts) assert.notInclude(texts(view), text, "private lists hold no scoped row")

    assert.deepStrictEqual(
      view.subjects.map((s) => [s.subject_kind, s.subject_id, s.scope, s.display_name]),
      [
        ["group_chat", "qq:100", "group_chat:qq:100", "Hiking Friends"],
        ["group_chat", "qq:300", "group_chat:qq:300", null],
        ["participant", "qq:222", "participant:qq:222", "Bob"]
      ]
    )
    const [group, chess, member] = view.subjects
    assert.deepStrictEqual(Object.keys(group!).sort(), [
      "archived_facts",
      "display_name",
      "facts",
      "persona",
      "reflections",
      "scope",
      "subject_id",
      "subject_kind"
    ])
    assert.deepStrictEqual(
      group!.facts.map((f) => f.text),
      [GROUP_TEXT.fact]
    )
    assert.deepStrictEqual(Object.keys(group!.facts[0]!).sort(), Object.keys(view.facts[0]!).sort())
    assert.deepStrictEqual(
      group!.archived_facts.map((f) => f.text),
      [GROUP_TEXT.archivedFact]
    )
    assert.deepStrictEqual(
      group!.reflections.map((r) => [r.text, r.status]),
      [
        [GROUP_TEXT.reflection, "pending"],
        [GROUP_TEXT.archivedReflection, "archived"]
      ]
    )
    assert.deepStrictEqual(Object.keys(group!.reflections[0]!).sort(), Object.keys(view.reflections[0]!).sort())
    assert.deepStrictEqual(group!.persona, [
      {
        section: "@subject/group_chat:qq:100",
        entries: [
          {
            id: "scoped_g1",
            text: GROUP_TEXT.section,
            protected: false,
            source: "scoped",
            suppress: false,
            score: 0,
            version_history: 0
          },
          {
            id: "scoped_g2",
            text: GROUP_TEXT.stamped,
            protected: false,
            source: "scoped",
            suppress: false,
            score: 0,
            version_history: 0
          }
        ]
      }
    ])
    assert.deepStrictEqual(texts(chess!), ["The chess club plays blitz"])
    assert.sameMembers(texts(member!), [MEMBER_TEXT.fact, MEMBER_TEXT.reflection, MEMBER_TEXT.persona])
    assert.deepStrictEqual(
      member!.persona.map((s) => s.section),
      ["master"]
    )

    const forgot = await post(`${server.url}/internal/memory/Tian/scoped_forget`, JSON.stringify({ subject: GROUP }))
    assert.strictEqual(forgot.status, 200, forgot.text)
    const after = await read()
    assert.deepStrictEqual(
      after.subjects.map((s) => s.subject_id),
      ["qq:300", "qq:222"]
    )
    assert.deepStrictEqual(texts(after.subjects[1]!), texts(member!))
    assert.deepStrictEqual(texts(after), texts(view), "private memory is untouched")
    assert.deepStrictEqual(after.subjects.find((s) => s.subject_id === "qq:222")?.subject_kind, MEMBER.subject_kind)
  })
})
