/**
 * Group-chat memory over real HTTP, a QQ-style flow end to end: a group digest through `scoped_history`, a
 * maintenance pass forms the group's reflection, `scoped_context` shows the group's memory and nothing
 * private, `/query_memory` with the group's subject finds it while a private query and another group's query
 * do not, and `scoped_forget` leaves no byte of that text under the character's directory (every file read,
 * SQLite files included) while the other group's and the private memories stay. Plus N.E.K.O.'s 4xx cases,
 * `scoped_facts` idempotence, batched segments and `scoped_mentions`.
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { history, post, serverSuite, turn } from "../support/server.js"

const GROUP = { subject_kind: "group_chat", subject_id: "qq:100" }
const OTHER = { subject_kind: "group_chat", subject_id: "qq:200" }
const MEMBER = { subject_kind: "group_participant", subject_id: "qq:100:111" }
const digest = [
  "[Alice(111)] I love hiking in the Dolomites.",
  "[Bob(222)] I go hiking in the Dolomites every summer.",
  "[Alice(111)] I bought new hiking boots for the Dolomites trip.",
  "[Carla(333)] I am planning a hiking trip to the Dolomites in July.",
  "[Bob(222)] I hiked the Dolomites with my brother last year.",
  "[Carla(333)] My hiking club meets every Sunday near Bolzano."
].map((content) => ({ role: "user", content }))
const SECRET = ["Dolomites", "Bolzano", "hiking boots"]

const everyFile = (dir: string) =>
  readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => ({ f, text: readFileSync(path.join(dir, f)).toString("latin1") }))

describe("group-chat memory", () => {
  const { temp, startWithVectors } = serverSuite()

  it("keeps a group's memory to that group, shows it, recalls it, and forgets it completely", async () => {
    const server = await startWithVectors(temp.memory)
    const url = (route: string) => `${server.url}/internal/memory/Tian/${route}`
    const json = async (route: string, body: unknown) => {
      const r = await post(url(route), JSON.stringify(body))
      return { status: r.status, body: r.type.includes("json") ? JSON.parse(r.text) : r.text, type: r.type }
    }

    const stored = await post(
      `${server.url}/cache/Tian`,
      history(turn("I really like ramen with extra garlic.", "Noted!"))
    )
    assert.strictEqual(stored.status, 200)
    const other = await json("scoped_facts", {
      subject: OTHER,
      facts: [{ text: "Dana plays the violin in an orchestra", importance: 7 }],
      display_name: "Music Club"
    })
    assert.strictEqual(other.status, 200)
    assert.strictEqual(other.body.created, 1)

    const processed = await json("scoped_history", {
      input_history: JSON.stringify(digest),
      subject: GROUP,
      display_name: "Hiking Friends"
    })
    assert.strictEqual(processed.status, 200, JSON.stringify(processed.body))
    assert.strictEqual(processed.body.status, "processed")
    assert.deepStrictEqual(processed.body.subject, { ...GROUP, scope: "group_chat:qq:100" })
    assert.isAtLeast(processed.body.created, 5)
    assert.strictEqual(processed.body.fact_ids.length, processed.body.created)
    assert.strictEqual(processed.body.trust.persisted, null)
    const facts = JSON.parse(readFileSync(path.join(temp.memory, "Tian", "facts.json"), "utf8"))
    const mine = facts.filter((f: { subject_id?: string }) => f.subject_id === "qq:100")
    assert.isTrue(
      mine.every((f: { entity: string; scope: string }) => f.entity === "group_chat" && f.scope === "group_chat:qq:100")
    )
    assert.isTrue(
      mine.some((f: { text: string }) => f.text.includes("Alice")),
      "a member's words are about the member"
    )

    await post(`${server.url}/internal/maintenance/run_once`, JSON.stringify({ character: "Tian" }))
    const context = await json("scoped_context", { subjects: [GROUP], language: "en" })
    assert.strictEqual(context.status, 200)
    assert.include(context.type, "text/plain")
    assert.include(context.body, "### Group chat memory (Hiking Friends, qq:100)")
    assert.include(context.body, "Dolomites")
    assert.notInclude(context.body, "ramen")
    assert.notInclude(context.body, "violin")

    const query = async (subjects?: ReadonlyArray<unknown>) => {
      const r = await post(
        `${server.url}/query_memory/Tian`,
        JSON.stringify({ query: "Dolomites hiking", ...(subjects ? { subjects } : {}) })
      )
      return JSON.parse(r.text)
        .results.map((x: { text: string }) => x.text)
        .join("\n")
    }
    assert.include(await query([GROUP]), "Dolomites")
    assert.notInclude(await query(), "Dolomites", "a private query never reads a group")
    assert.notInclude(await query([OTHER]), "Dolomites", "nor does another group's")

    const mentioned = await json("scoped_mentions", { response_text: "The Dolomites sound lovely!", subjects: [GROUP] })
    assert.deepStrictEqual(mentioned.body, { status: "recorded" })
    assert.deepStrictEqual((await json("scoped_mentions", { response_text: "  ", subjects: [GROUP] })).body, {
      status: "skipped"
    })

    const forgotten = await json("scoped_forget", { subject: GROUP })
    assert.strictEqual(forgotten.status, 200, JSON.stringify(forgotten.body))
    assert.strictEqual(forgotten.body.status, "forgotten")
    assert.strictEqual(forgotten.body.facts, mine.length)
    assert.isAtLeast(forgotten.body.reflections, 1)
    assert.deepStrictEqual(forgotten.body.forgotten_subjects, [{ ...GROUP, scope: "group_chat:qq:100" }])
    for (const { f, text } of everyFile(path.join(temp.memory, "Tian")))
      for (const s of SECRET) assert.notInclude(text, s, `${s} in ${f}`)
    const again = await json("scoped_forget", { subject: GROUP })
    assert.strictEqual(again.body.facts, 0, "a second forget finds nothing")
    assert.strictEqual(again.body.reflections, 0)
    const left = readFileSync(path.join(temp.memory, "Tian", "facts.json"), "utf8")
    assert.include(left, "violin", "the other group's memory stays")
    const privateRecall = await post(`${server.url}/query_memory/Tian`, JSON.stringify({ query: "ramen garlic" }))
    assert.include(privateRecall.text, "ramen", "and so does private memory")
  })

  it("answers N.E.K.O.'s contract errors and writes nothing for them", async () => {
    const server = await startWithVectors(temp.memory)
    const send = (route: string, body: unknown) =>
      post(`${server.url}/internal/memory/Kumo/${route}`, JSON.stringify(body)).then((r) => ({
        status: r.status,
        body: JSON.parse(r.text)
      }))
    const cases: ReadonlyArray<readonly [string, unknown, number, string | undefined]> = [
      ["scoped_facts", { subject: GROUP, facts: [] }, 422, "facts must contain 1..32 items"],
      [
        "scoped_facts",
        { subject: GROUP, facts: [{ text: "  " }] },
        422,
        "each fact text must contain 1..2000 characters"
      ],
      ["scoped_facts", { subject: { subject_kind: "dm", subject_id: "x" }, facts: [{ text: "a" }] }, 422, undefined],
      [
        "scoped_facts",
        { subject: { subject_kind: "group_participant", subject_id: "qq:1" }, facts: [{ text: "a" }] },
        422,
        "group_participant subject_id must be platform:group:speaker"
      ],
      [
        "scoped_facts",
        { subject: { ...GROUP, scope: "legacy_private" }, facts: [{ text: "a" }] },
        422,
        "new subjects cannot use legacy_private scope"
      ],
      ["scoped_facts", { subject: GROUP, facts: [{ text: "a", importance: 11 }] }, 422, undefined],
      ["scoped_history", { subject: GROUP }, 422, "either segments or input_history+subject is required"],
      ["scoped_history", { subject: GROUP, input_history: "not json" }, 422, "invalid input_history"],
      ["scoped_history", { subject: GROUP, input_history: "[]" }, 422, "input_history must contain 1..200 messages"],
      [
        "scoped_history",
        { segments: [{ input_history: "[]", subject: GROUP, speaker_label: "A" }], subject: GROUP },
        422,
        "segments is exclusive with the single-subject fields"
      ],
      ["scoped_history", { segments: [] }, 422, "segments must contain 1..8 items"],
      [
        "scoped_history",
        { segments: [{ input_history: JSON.stringify(digest), subject: MEMBER, speaker_label: " " }] },
        422,
        "segment 1: speaker_label is required"
      ],
      ["scoped_context", { subjects: [] }, 422, "subjects must contain 1..8 items"],
      ["scoped_context", { subjects: Array.from({ length: 9 }, () => GROUP) }, 422, "subjects must contain 1..8 items"],
      ["scoped_mentions", { response_text: "hi", subjects: [] }, 422, "subjects must contain 1..8 items"],
      ["scoped_forget", {}, 422, undefined]
    ]
    for (const [route, body, status, message] of cases) {
      const r = await send(route, body)
      assert.strictEqual(r.status, status, `${route} ${JSON.stringify(body)}`)
      if (message !== undefined) assert.strictEqual(r.body.detail, message)
      else assert.isArray(r.body.detail, "a body that is not the model gets FastAPI's list")
    }
    assert.isFalse(readdirSync(temp.memory).includes("Kumo"), "nothing was written")
    const bad = await post(
      `${server.url}/internal/memory/a%2Fb/scoped_facts`,
      JSON.stringify({ subject: GROUP, facts: [{ text: "x" }] })
    )
    assert.strictEqual(bad.status, 400)
  })

  it("stores facts once per subject, processes batched segments and keeps members apart", async () => {
    const server = await startWithVectors(temp.memory)
    const send = (route: string, body: unknown) =>
      post(`${server.url}/internal/memory/Sora/${route}`, JSON.stringify(body)).then((r) => JSON.parse(r.text))
    const facts = { subject: MEMBER, facts: [{ text: "Alice's favourite tea is genmaicha", importance: 6 }] }
    const first = await send("scoped_facts", { ...facts, language: "ja" })
    assert.strictEqual(first.status, "stored")
    assert.strictEqual(first.created, 1)
    assert.match(first.fact_ids[0], /^fact_\d{14}_[0-9a-f]{8}$/)
    assert.strictEqual((await send("scoped_facts", facts)).created, 0, "the same fact again adds nothing")
    const subjects = JSON.parse(readFileSync(path.join(temp.memory, "Sora", "scoped_subjects.json"), "utf8"))
    assert.strictEqual(subjects[0].language, "ja", "the subject remembers its language")
    const locale = JSON.parse((await fetch(`${server.url}/prompt-locale/Sora`).then((r) => r.text())) || "{}")
    assert.notStrictEqual(locale.language, "ja", "a group's language is not the character's")
    assert.strictEqual((await send("scoped_facts", { ...facts, subject: GROUP })).created, 1, "another subject's copy")

    const batch = await send("scoped_history", {
      segments: [
        {
          input_history: JSON.stringify([{ role: "user", content: "I work as a nurse in Osaka." }]),
          subject: MEMBER,
          speaker_label: "Alice (111)"
        },
        {
          input_history: JSON.stringify([{ role: "user", content: "I have two dogs named Kuro and Shiro." }]),
          subject: { subject_kind: "group_participant", subject_id: "qq:100:222" },
          speaker_label: "Bob"
        }
      ]
    })
    assert.strictEqual(batch.status, "processed")
    assert.strictEqual(batch.segments.length, 2)
    assert.deepStrictEqual(
      batch.segments.map((s: { status: string }) => s.status),
      ["ok", "ok"]
    )
    assert.isAtLeast(batch.segments[0].created, 1)
    const member = await post(
      `${server.url}/query_memory/Sora`,
      JSON.stringify({ query: "dogs Kuro Shiro", subjects: [MEMBER] })
    )
    const texts = (r: { readonly text: string }) =>
      JSON.parse(r.text)
        .results.map((x: { text: string }) => x.text)
        .join("\n")
    assert.notInclude(texts(member), "Kuro", "Bob's dogs are not Alice's memory")
    const bob = await post(
      `${server.url}/query_memory/Sora`,
      JSON.stringify({
        query: "dogs Kuro Shiro",
        subjects: [{ subject_kind: "group_participant", subject_id: "qq:100:222" }]
      })
    )
    assert.include(texts(bob), "Kuro")
  })

  it("routes through the identity graph: trust on the facts, one participant read and forgotten across accounts", async () => {
    const server = await startWithVectors(temp.memory)
    const call = (route: string, body: unknown) =>
      post(`${server.url}${route}`, JSON.stringify(body)).then((r) => ({ status: r.status, body: JSON.parse(r.text) }))
    const owner = (await call("/internal/identity/accounts/ensure", { account_id: "qq:500" })).body.entity_id
    assert.isTrue(
      (await call("/internal/identity/accounts/bind", { account_id: "qq:501", entity_id: owner })).body.changed
    )
    const first = { subject_kind: "participant", subject_id: "qq:500" }
    const second = { subject_kind: "participant", subject_id: "qq:501" }
    const written = await call("/internal/memory/Hoshi/scoped_history", {
      input_history: JSON.stringify([{ role: "user", content: "I collect vintage fountain pens." }]),
      subject: second,
      speaker_label: "Emi",
      speaker_id: "qq:501",
      speaker_tier: "trusted"
    })
    assert.strictEqual(written.status, 200, JSON.stringify(written.body))
    assert.strictEqual(written.body.trust.gated, "legacy_import_pending", "no trust before the legacy import")
    assert.isTrue((await call("/internal/trust/waive_legacy_barrier", { platform: "qq" })).body.persisted)
    const trusted = await call("/internal/memory/Hoshi/scoped_history", {
      input_history: JSON.stringify([{ role: "user", content: "I collect vintage fountain pens from Kyoto." }]),
      subject: second,
      speaker_label: "Emi",
      speaker_id: "qq:501",
      speaker_tier: "trusted"
    })
    assert.isNumber(trusted.body.trust.resolved)
    const facts = JSON.parse(readFileSync(path.join(temp.memory, "Hoshi", "facts.json"), "utf8"))
    assert.isTrue(
      facts.some(
        (f: { speaker_label?: string; speaker_trust?: number }) =>
          f.speaker_label === "Emi" && typeof f.speaker_trust === "number"
      )
    )
    const recalled = await call("/query_memory/Hoshi", { query: "fountain pens", subjects: [first] })
    assert.include(
      JSON.stringify(recalled.body.results),
      "fountain pens",
      "another account of the same person reads it"
    )
    const bad = await call("/internal/memory/Hoshi/scoped_history", {
      input_history: JSON.stringify([{ role: "user", content: "hello" }]),
      subject: second,
      speaker_label: "Emi",
      speaker_tier: "trusted"
    })
    assert.deepStrictEqual(bad, { status: 422, body: { detail: "trust source requires a valid speaker_id" } })
    const forgotten = await call("/internal/memory/Hoshi/scoped_forget", { subject: first })
    assert.strictEqual(forgotten.status, 200, JSON.stringify(forgotten.body))
    assert.sameDeepMembers(
      forgotten.body.forgotten_subjects.map((x: { subject_id: string }) => x.subject_id),
      ["qq:500", "qq:501"]
    )
    assert.notInclude(readFileSync(path.join(temp.memory, "Hoshi", "facts.json"), "utf8"), "fountain")
  })
})
