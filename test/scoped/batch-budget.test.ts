/**
 * N.E.K.O.'s batch content budget of `scoped_history` segments (BatchBudget.ts), with o200k_base and with the
 * heuristic counter: bodies within budget unchanged, a long body capped at 500 tokens with both ends kept,
 * 200 long messages held to 8,000 tokens in all without starving the late ones, short messages' savings
 * lent to long ones, the generated line prefixes paid for.
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { heuristic, Tokenizer, type TokenCounter } from "../../src/llm/Tokenizer.js"
import { BATCH_CONTENT_MAX_TOKENS, makeBudget, PER_MESSAGE_MAX_TOKENS } from "../../src/scoped/BatchBudget.js"

const MARK = "…(omitted)…"
const total = (tokens: TokenCounter, bodies: ReadonlyArray<ReadonlyArray<string>>) => {
  const b = makeBudget(tokens, MARK)
  return bodies.reduce((n, seg) => n + seg.reduce((m, x, i) => m + b.cost(x) + (i > 0 ? tokens.count("\n") : 0), 0), 0)
}

const checks = (tokens: TokenCounter) => {
  const budget = makeBudget(tokens, MARK)
  const normal = "普通消息 stays exactly intact: [] | punctuation!"
  const oversized = `BEGIN-important ${"界".repeat(2000)} END-important`
  const [[kept, capped] = []] = budget.apply([[normal, oversized]])
  assert.strictEqual(kept, normal)
  assert.isTrue(capped?.startsWith("BEGIN-important"), capped?.slice(0, 40))
  assert.isTrue(capped?.endsWith("END-important"))
  assert.include(capped, MARK)
  assert.isAtMost(budget.cost(capped ?? ""), PER_MESSAGE_MAX_TOKENS)

  const many = Array.from({ length: 200 }, (_, i) => `head-${i} ${"界".repeat(1000)} tail-${i}`)
  const [out = []] = budget.apply([many])
  assert.strictEqual(out.length, 200)
  assert.isAtMost(total(tokens, [out]), BATCH_CONTENT_MAX_TOKENS)
  out.forEach((body, i) => {
    assert.include(body, MARK)
    assert.isTrue(body.startsWith(`head-${i}`), body.slice(0, 20))
    assert.isTrue(body.endsWith(`tail-${i}`), body.slice(-20))
  })

  const mixed = [...Array.from({ length: 20 }, () => `H${"界".repeat(1000)}T`), ...Array(180).fill("ok")]
  const [shared = []] = budget.apply([mixed])
  const costs = shared.map((b) => budget.cost(b))
  assert.isTrue(
    costs.slice(0, 20).every((c) => c > 300),
    "the long messages use what the short ones leave"
  )
  assert.isAbove(total(tokens, [shared]), 7500)
  assert.isAtMost(total(tokens, [shared]), BATCH_CONTENT_MAX_TOKENS)

  const dense = `BEGIN\n${"\n".repeat(16000)}END`
  const [[squeezed = ""] = []] = budget.apply([[dense]])
  assert.isAtMost(budget.cost(squeezed), PER_MESSAGE_MAX_TOKENS, "the `| ` prefixes count")
  assert.isTrue(squeezed.startsWith("BEGIN"))
  assert.isTrue(squeezed.endsWith("END"))

  const segments = [Array(100).fill(`a ${"x ".repeat(300)}z`), Array(100).fill(`b ${"y ".repeat(300)}w`)]
  const split = budget.apply(segments)
  assert.deepStrictEqual(
    split.map((s) => s.length),
    [100, 100]
  )
  assert.isAtMost(total(tokens, split), BATCH_CONTENT_MAX_TOKENS, "the budget spans all segments")
  assert.isTrue(split[1]?.every((b) => b.startsWith("b ") && b.endsWith("w")))
}

describe("scoped_history batch content budget", () => {
  it.effect("trims with o200k_base", () =>
    Effect.gen(function* () {
      checks(yield* Effect.provide(Tokenizer, Tokenizer.layer))
    })
  )
  it("trims with the heuristic counter", () => checks(heuristic))
})
