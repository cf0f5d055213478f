import { assert, describe, it } from "@effect/vitest"
import { joinMemo, splitMemo } from "../../web/browser/memo.js"

describe("the memo's summary and older section", () => {
  it("splits at the first line of hyphens, keeping the prefix apart", () => {
    const text = "Memo from prior conversations: likes tea\n\n---\n\nmoved to Kyoto\n---\nstill older"
    assert.deepStrictEqual(splitMemo(text), {
      prefix: "Memo from prior conversations: ",
      body: "likes tea",
      older: "moved to Kyoto\n---\nstill older"
    })
    assert.deepStrictEqual(splitMemo("先前对话的备忘录: 喜欢茶"), {
      prefix: "先前对话的备忘录: ",
      body: "喜欢茶",
      older: ""
    })
    assert.deepStrictEqual(splitMemo("a --- b"), { prefix: "", body: "a --- b", older: "" })
  })

  it("joins with one canonical divider, drops an empty older section, keeps an unedited memo as loaded", () => {
    const loaded = "先前对话的备忘录: 喜欢茶\n-----\n搬到京都"
    assert.strictEqual(joinMemo(loaded, splitMemo(loaded)), loaded)
    assert.strictEqual(
      joinMemo(loaded, { ...splitMemo(loaded), body: "喜欢乌龙茶\n\n" }),
      "先前对话的备忘录: 喜欢乌龙茶\n\n---\n\n搬到京都"
    )
    assert.strictEqual(joinMemo(loaded, { ...splitMemo(loaded), older: " \n" }), "先前对话的备忘录: 喜欢茶")
    assert.strictEqual(joinMemo("", { prefix: "", body: "new", older: "\nolder" }), "new\n\n---\n\nolder")
  })
})
