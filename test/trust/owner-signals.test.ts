/**
 * Owner trust signals, pure: N.E.K.O.'s deterministic relation cases (a restatement confirms, a polarity flip of
 * the same proposition corrects, everything uncertain gives nothing), kioku's leading-interjection and sentence
 * extension, and the evaluation's reach, self-attestation ban, dated-fact skip, replay and attachment.
 */
import { assert, describe, it } from "@effect/vitest"
import { createHash } from "node:crypto"
import { groupParticipant, subjectFields, type MemorySubject } from "../../src/domain/Subject.js"
import { relationOfMessage } from "../../src/trust/OwnerMessage.js"
import { deterministicRelation, relationKey } from "../../src/trust/OwnerRelation.js"
import { attachEvents, evaluateOwnerSignals, SIGNAL_EVENTS_FIELD, type OwnerJob } from "../../src/trust/OwnerSignals.js"

const subject = (group: string, speaker: string): MemorySubject => {
  const s = groupParticipant("qq", group, speaker)
  if (s._tag === "Left") throw new Error(s.left)
  return s.right
}
const OWNER = subject("7788", "9999")
const TARGET = subject("7788", "1001")
const FOREIGN = subject("8899", "1001")
const fact = (
  id: string,
  text: string,
  s: MemorySubject = TARGET,
  extra: Record<string, unknown> = {}
): Readonly<Record<string, unknown>> => ({
  id,
  text,
  speaker_id: "qq:1001",
  created_at: "2026-01-01T00:00:00",
  event_start_at: "2026-01-01T00:00:00",
  event_end_at: null,
  event_when_raw: null,
  ...subjectFields(s),
  ...extra
})
const job = (texts: ReadonlyArray<string>, extra: Partial<OwnerJob> = {}): OwnerJob => ({
  character: "Neko",
  sourceId: "qq:9999",
  selfAccounts: [],
  subject: OWNER,
  texts,
  excluded: [],
  ...extra
})

describe("deterministicRelation", () => {
  it("confirms a restatement and corrects only the same proposition with its polarity flipped", () => {
    const related: ReadonlyArray<readonly [string, string, string]> = [
      ["小明喜欢猫", "小明喜欢猫", "confirmation"],
      ["Bob is a nurse", "bob  is A nurse", "confirmation"],
      ["小明喜欢猫", "小明不喜欢猫", "correction"],
      ["喜欢猫", "不喜欢猫", "correction"],
      ["小明有猫", "小明没有猫", "correction"],
      ["Alice has no cats", "Alice has cats", "correction"],
      ["Alice did not click the button", "Alice did click the button", "correction"],
      ["Alice has never clicked the button", "Alice has clicked the button", "correction"],
      ["Alice is smart", "Alice is not smart!", "correction"]
    ]
    for (const [old, said, kind] of related) {
      assert.strictEqual(deterministicRelation(old, said), kind, `${old} / ${said}`)
      assert.strictEqual(relationKey(old), relationKey(said), "paired texts share their relation key")
    }
    assert.strictEqual(deterministicRelation("小明喜欢猫", "小明不喜欢狗"), undefined)
    assert.strictEqual(deterministicRelation("小明喜欢小红", "小红不喜欢小明"), undefined)
  })

  it("abstains on what code cannot tell safely", () => {
    const none: ReadonlyArray<readonly [string, string]> = [
      ["小明认识喜欢猫的人", "小明认识不喜欢猫的人"],
      ["喜欢猫的人来自北京", "不喜欢猫的人来自北京"],
      ["Alice is able", "Alice is notable"],
      ["Alice lives at No 5 Main Street", "Alice lives at 5 Main Street"],
      ["Alice clicked the No button", "Alice clicked the button"],
      ["Alice is not only smart", "Alice is only smart"],
      ["Alice clicked the never button", "Alice clicked the button"],
      ["她认识不二同学", "她认识二同学"],
      ["Alice is smart", "Alice is not smart?"],
      ["小明喜欢猫", "小明不喜欢猫？"],
      ["Alice is smart or kind", "Alice is not smart or kind"],
      ["Some cats are smart", "Some cats are not smart"],
      ["A cat is black", "A cat is not black"],
      ["有些猫喜欢鱼", "有些猫不喜欢鱼"],
      ["Alice sometimes is late", "Alice sometimes is not late"],
      ["Alice might be late", "Alice might not be late"],
      ["Maybe Alice is late", "Maybe Alice is not late"],
      ["Bob said Alice is late", "Bob said Alice is not late"],
      ["If Alice is late", "If Alice is not late"],
      ["小明可能喜欢猫", "小明可能不喜欢猫"],
      ["如果小明喜欢猫", "如果小明不喜欢猫"],
      ["小红认为小明喜欢猫", "小红认为小明不喜欢猫"]
    ]
    for (const [old, said] of none) assert.strictEqual(deterministicRelation(old, said), undefined, `${old} / ${said}`)
  })

  it("reads one leading interjection and each sentence (kioku), never a confirmation after a refusal", () => {
    assert.strictEqual(deterministicRelation("Bob is vegetarian", "No, Bob is not vegetarian."), undefined)
    assert.strictEqual(relationOfMessage("Bob is vegetarian", "No, Bob is not vegetarian."), "correction")
    assert.strictEqual(relationOfMessage("Bob is vegetarian", "Yes, Bob is vegetarian."), "confirmation")
    assert.strictEqual(relationOfMessage("Bob是护士", "对，Bob是护士。"), "confirmation")
    assert.strictEqual(relationOfMessage("Bob是护士", "不，Bob不是护士"), "correction")
    assert.strictEqual(relationOfMessage("Bob is vegetarian", "No, Bob is vegetarian."), undefined)
    assert.strictEqual(
      relationOfMessage("Bob is vegetarian", "Hmm. Bob is not vegetarian. He eats fish."),
      "correction"
    )
    assert.strictEqual(relationOfMessage("Bob is vegetarian", "Bob is vegetarian. Bob is not vegetarian."), undefined)
    assert.strictEqual(relationOfMessage("Bob is vegetarian", "Really? Bob is not vegetarian."), undefined)
    assert.strictEqual(relationOfMessage("Bob is vegetarian", "Bob likes vegetables"), undefined)
  })
})

describe("evaluateOwnerSignals", () => {
  const facts = [
    fact("cats", "小明喜欢猫"),
    fact("dogs", "小明喜欢狗"),
    fact("foreign", "小明喜欢猫", FOREIGN, { speaker_id: "qq:3003" }),
    fact("own", "小明喜欢猫", OWNER, { speaker_id: "qq:9999" }),
    fact("alt", "小明喜欢猫", TARGET, { id: "alt", speaker_id: "qq:9998" }),
    fact("mixed", "小明喜欢猫", TARGET, { speaker_provenance_mixed: true }),
    fact("dated", "小明喜欢猫", TARGET, { event_when_raw: { kind: "absolute" }, event_start_at: "2026-01-01T00:00:00" })
  ]

  it("emits one event per fact and kind in message order, within the group, never for the owner's own accounts", () => {
    const events = evaluateOwnerSignals(
      job(["小明喜欢猫", "小明不喜欢狗", "小明不喜欢狗"], { selfAccounts: ["qq:9999", "qq:9998"] }),
      facts,
      []
    )
    assert.deepStrictEqual(
      events.map((e) => [e.kind, e.source_fact_id, e.speaker_id]),
      [
        ["confirmation", "cats", "qq:1001"],
        ["correction", "dogs", "qq:1001"]
      ]
    )
    const key = createHash("sha256")
      .update(JSON.stringify(["Neko", "qq:9999", "group_participant", "qq:7788:1001", TARGET.scope, "cats"]))
      .digest("hex")
      .slice(0, 24)
    const id = createHash("sha256").update(`confirmation|${key}|qq:1001`).digest("hex").slice(0, 24)
    assert.strictEqual(events[0]!.event_id, id, "N.E.K.O.'s event id")
    assert.strictEqual(events[0]!.observation_id, createHash("sha256").update("小明喜欢猫").digest("hex").slice(0, 24))
    const excluded = evaluateOwnerSignals(
      job(["小明喜欢猫"], { excluded: [["cats", "group_participant", "qq:7788:1001", TARGET.scope]] }),
      [facts[0]!],
      []
    )
    assert.deepStrictEqual(excluded, [])
  })

  it("attaches new events once, replays recorded ones for the same message, and writes no archived row", () => {
    const events = evaluateOwnerSignals(job(["小明不喜欢猫"]), [facts[0]!], [])
    assert.strictEqual(events.length, 1)
    const first = attachEvents([facts[0]!], [], events)
    assert.deepStrictEqual(first.durable, events)
    assert.strictEqual(first.changed.length, 1)
    const stored = first.changed[0]!
    assert.deepStrictEqual(stored[SIGNAL_EVENTS_FIELD], events)
    const again = attachEvents([stored], [], evaluateOwnerSignals(job(["小明不喜欢猫"]), [stored], [stored]))
    assert.deepStrictEqual(again, { changed: [], durable: events }, "a repeat changes nothing")
    const archived = { ...stored, id: "cats" }
    const replayed = evaluateOwnerSignals(job(["小明不喜欢猫"]), [], [archived])
    assert.deepStrictEqual(replayed, events, "an archived row's event is re-delivered for the same message")
    assert.deepStrictEqual(attachEvents([], [archived], replayed), { changed: [], durable: events })
    assert.deepStrictEqual(evaluateOwnerSignals(job(["小明不喜欢猫!"]), [], [archived]), [], "another message")
    const moved = { ...facts[0]!, speaker_id: "qq:4004" }
    assert.deepStrictEqual(attachEvents([moved], [], events), { changed: [], durable: [] }, "the row changed hands")
  })
})
