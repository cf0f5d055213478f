/**
 * The memory browser's seed (browserSeed.ts) plus group-chat memory of two subjects — a group chat and a
 * participant — planted in the same files as the private rows: a stamped reflection each, an archived stamped
 * reflection and archived fact of the group, the group's `@subject/…` persona section (an unstamped entry in
 * it and a stamped one), a participant's entry stamped inside the private `master` section, and a third
 * subject known only from its persona section. `writeSubjectFacts` adds each subject's facts and display name
 * through the real `scoped_facts` route.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { seed } from "./browserSeed.js"
import { post } from "./server.js"

export const GROUP = { subject_kind: "group_chat", subject_id: "qq:100", scope: "group_chat:qq:100" } as const
export const MEMBER = { subject_kind: "participant", subject_id: "qq:222", scope: "participant:qq:222" } as const

/** Texts of each subject, every one of them absent from the private seed. */
export const GROUP_TEXT = {
  fact: "Alice organises the hiking trips to the Dolomites",
  archivedFact: "The hiking group once met in Bolzano",
  reflection: "The hiking group plans a trip every July",
  archivedReflection: "The hiking group used to meet on Fridays",
  section: "Members greet each other with a mountain emoji",
  stamped: "The group dislikes spoilers about mountain films"
}
export const MEMBER_TEXT = {
  fact: "Bob collects vinyl records of jazz trios",
  reflection: "Bob likes talking about record fairs",
  persona: "Bob prefers to be called Bobby"
}

const reflection = (id: string, text: string, subject: object, extra: object = {}) => ({
  id,
  text,
  entity: "group_chat",
  status: "pending",
  source_fact_ids: [],
  created_at: "2026-11-10T10:00:00",
  reinforcement: 1,
  ...subject,
  ...extra
})

export const seedSubjects = (dir: string) => {
  seed(dir)
  const file = (name: string) => path.join(dir, name)
  const json = (name: string, value: unknown) => writeFileSync(file(name), JSON.stringify(value, null, 2))
  const reflections: Array<unknown> = JSON.parse(readFileSync(file("reflections.json"), "utf8"))
  json("reflections.json", [
    ...reflections,
    reflection("ref_g1", GROUP_TEXT.reflection, GROUP),
    reflection("ref_m1", MEMBER_TEXT.reflection, MEMBER, { entity: "participant" })
  ])
  mkdirSync(file("reflection_archive"), { recursive: true })
  const shard = "2026-11-21_1a2b3c4d.json"
  json(path.join("reflection_archive", shard), [
    reflection("ref_g0", GROUP_TEXT.archivedReflection, GROUP, {
      status: "archived",
      archived_at: "2026-11-21T10:00:00",
      archive_shard_path: shard
    })
  ])
  const factShard = "2026-10-02_1a2b3c4d.json"
  json(path.join("facts_archive", factShard), [
    {
      id: "fact_20260902090000_cccc0001",
      text: GROUP_TEXT.archivedFact,
      importance: 5,
      entity: "group_chat",
      hash: "cccc000100000000",
      created_at: "2026-09-02T09:00:00",
      archived_at: "2026-10-02T08:00:00",
      archive_shard_path: factShard,
      ...GROUP
    }
  ])
  const persona = JSON.parse(readFileSync(file("persona.json"), "utf8"))
  json("persona.json", {
    ...persona,
    master: {
      facts: [...persona.master.facts, { id: "scoped_m1", text: MEMBER_TEXT.persona, source: "scoped", ...MEMBER }]
    },
    "@subject/group_chat:qq:100": {
      facts: [
        { id: "scoped_g1", text: GROUP_TEXT.section, source: "scoped" },
        { id: "scoped_g2", text: GROUP_TEXT.stamped, source: "scoped", ...GROUP }
      ]
    },
    "@subject/group_chat:qq:300": { facts: [{ id: "scoped_o1", text: "The chess club plays blitz", source: "scoped" }] }
  })
}

/** Each subject's fact and display name through `POST /internal/memory/Tian/scoped_facts`. */
export const writeSubjectFacts = async (url: string) => {
  for (const [subject, text, display_name] of [
    [GROUP, GROUP_TEXT.fact, "Hiking Friends"],
    [MEMBER, MEMBER_TEXT.fact, "Bob"]
  ] as const) {
    const body = { subject, facts: [{ text, importance: 6 }], display_name }
    const r = await post(`${url}/internal/memory/Tian/scoped_facts`, JSON.stringify(body))
    if (r.status !== 200) throw new Error(`scoped_facts: ${r.status} ${r.text}`)
  }
}
