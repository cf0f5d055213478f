import { assert, describe, it } from "@effect/vitest"
import { setFlagsFromString } from "node:v8"
import { withFields } from "../../src/domain/Shapes.js"

// V8's own shape check, compiled after allowing natives syntax for this process.
setFlagsFromString("--allow-natives-syntax")
const sameShape = new Function("a", "b", "return %HaveSameMap(a, b)") as (a: object, b: object) => boolean

describe("withFields", () => {
  it("copies like a spread: base fields, then the new ones over them, base untouched", () => {
    const sym = Symbol("s")
    const base = { a: 1, b: "x", [sym]: true }
    const out = withFields(base, { b: "y", c: 3 })
    assert.deepStrictEqual(Object.keys(out), ["a", "b", "c"])
    assert.strictEqual(out.b, "y")
    assert.strictEqual(out.c, 3)
    assert.strictEqual(out[sym], true)
    assert.deepStrictEqual(base, { a: 1, b: "x", [sym]: true })
    assert.notStrictEqual(withFields(base, {}), base)
    assert.deepStrictEqual(withFields(base, {}), base)
  })

  it("keeps an own __proto__ key of parsed JSON a field, never the prototype", () => {
    const parsed: object = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}')
    const out = withFields(parsed, { b: 2 })
    assert.strictEqual(Object.getPrototypeOf(out), Object.prototype)
    assert.isTrue(Object.hasOwn(out, "__proto__"))
    assert.isUndefined((out as { polluted?: boolean }).polluted)
  })

  it("gives every copy made at one site the same shape (a spread does not, once warm)", () => {
    const sources = Array.from({ length: 200 }, (_, i) => ({ content: `text ${i}` }))
    const copies = sources.map((s, i) => withFields(s, { id: `e:${i}` }))
    const spread = sources.map((s, i) => ({ ...s, id: `e:${i}` }))
    assert.isTrue(copies.every((c) => sameShape(c, copies[0]!)))
    // The engine behaviour the helper exists for; if a Node upgrade fixes it, this line says so.
    assert.isFalse(spread.every((c) => sameShape(c, spread[0]!)))
  })
})
