import { assert, describe, it } from "@effect/vitest"
import type { StoredMessage } from "../../src/domain/Message.js"
import { heuristic } from "../../src/llm/Tokenizer.js"
import {
  chunkLines,
  cutToSentenceEnd,
  fingerprint,
  hardCapDrop,
  memoItem,
  renderLines,
  sliceToCompress,
  splice
} from "../../src/recent/Compression.js"

const msg = (type: string, content: string): StoredMessage => ({ type, data: { content } })
const many = (n: number) => Array.from({ length: n }, (_, i) => msg(i % 2 === 0 ? "human" : "ai", `m${i}`))
const names = { master: "Alex", character: "Tian" }

describe("compression rules", () => {
  it("compresses only above the threshold, keeping the newest items", () => {
    assert.isUndefined(sliceToCompress(many(20), 20, 9))
    const slice = sliceToCompress(many(21), 20, 9)
    assert.deepStrictEqual(
      slice?.map((m) => m.data.content),
      many(12).map((m) => m.data.content)
    )
  })

  it("renders speaker lines and truncates long messages in the middle", () => {
    const long = "word ".repeat(2000)
    const [line] = renderLines([msg("human", long)], names, heuristic, 250)
    assert.isTrue(line?.startsWith("Alex | word word"))
    assert.include(line, "…(omitted)…")
    assert.isAtMost(heuristic.count(line ?? ""), 520)
    assert.deepStrictEqual(renderLines([msg("ai", "hi"), msg("system", "memo")], names, heuristic, 250), [
      "Tian | hi",
      "SYSTEM_MESSAGE | memo"
    ])
  })

  it("chunks whole lines within the budget", () => {
    const lines = Array.from({ length: 10 }, (_, i) => `${i} ` + "x".repeat(396))
    const chunks = chunkLines(lines, 300, heuristic)
    assert.strictEqual(chunks.length, 5)
    assert.deepStrictEqual(chunks.flat(), lines)
    for (const c of chunks)
      assert.isAtMost(
        c.reduce((n, l) => n + heuristic.count(l) + 1, 0),
        300
      )
    assert.deepStrictEqual(chunkLines(["y".repeat(4000)], 300, heuristic), [["y".repeat(4000)]])
  })

  it("splices only while the snapshot is still the head", () => {
    const items = many(12)
    const snapshot = items.slice(0, 3).map(fingerprint)
    const memo = memoItem("summary", "en")
    const later = [...items, msg("human", "new")]
    assert.deepStrictEqual(splice(later, snapshot, [memo]), [memo, ...later.slice(3)])
    assert.isUndefined(splice(items.slice(1), snapshot, [memo]))
    assert.isUndefined(splice([], snapshot, [memo]))
    assert.strictEqual(memo.data.content, "Memo from prior conversations: summary")
    assert.strictEqual(memoItem("总结", "zh").data.content, "先前对话的备忘录: 总结")
  })

  it("hard-caps by dropping the oldest items after the memo, never below the minimum", () => {
    const items = [msg("system", "memo"), ...Array.from({ length: 30 }, () => msg("human", "y".repeat(4000)))]
    const drop = hardCapDrop(items, 20_000, 10, heuristic)
    assert.strictEqual(drop, 11)
    const tight = hardCapDrop(items, 10, 10, heuristic)
    assert.strictEqual(items.length - tight, 10)
    assert.strictEqual(hardCapDrop(many(5), 60_000, 10, heuristic), 0)
  })

  it("cuts a summary back to its last sentence end", () => {
    assert.strictEqual(cutToSentenceEnd("One. Two! Three and"), "One. Two!")
    assert.strictEqual(cutToSentenceEnd("一。二！三"), "一。二！")
    assert.strictEqual(cutToSentenceEnd("no end"), "no end")
  })
})
