import { assert, describe, it } from "@effect/vitest"
import { memoTwoStrings } from "../../src/domain/Memo.js"

describe("memo of two strings", () => {
  it("answers each pair once, keeps pairs apart, and holds at most `kept` results in all", () => {
    const calls: Array<string> = []
    const joined = memoTwoStrings((a: string, b: string) => {
      calls.push(`${a}|${b}`)
      return `${a}+${b}`
    }, 3)
    assert.strictEqual(joined("Tian", "milk"), "Tian+milk")
    assert.strictEqual(joined("Tian", "milk"), "Tian+milk")
    assert.strictEqual(joined("Mochi", "milk"), "Mochi+milk")
    assert.strictEqual(joined("Tian", "tea"), "Tian+tea")
    assert.deepStrictEqual(calls, ["Tian|milk", "Mochi|milk", "Tian|tea"])
    joined("Yuki", "rain")
    joined("Tian", "milk")
    assert.deepStrictEqual(calls.slice(3), ["Yuki|rain", "Tian|milk"], "the fourth result dropped the first three")
  })
})
