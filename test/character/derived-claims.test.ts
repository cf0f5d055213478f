import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { DerivedClaims } from "../../src/runtime/DerivedClaims.js"

const none = { resumeNames: [], resumeGenerations: {}, releaseClaims: {} }

describe("derived-task admission claims", () => {
  it.effect("retires a claimed name until its claim is released, and withdraws a released token for good", () =>
    Effect.gen(function* () {
      const claims = yield* DerivedClaims
      assert.isFalse(yield* claims.retired("Hana"))
      assert.strictEqual(yield* claims.claim("Hana", "t1", 1, false), "claimed")
      assert.isTrue(yield* claims.retired("Hana"))
      yield* claims.reload(["Hana"], none)
      assert.isTrue(yield* claims.retired("Hana"), "an unrelated reload keeps a token-owned claim")
      yield* claims.reload(["Hana"], { ...none, releaseClaims: { Hana: ["t1"] } })
      assert.isFalse(yield* claims.retired("Hana"))
      assert.strictEqual(yield* claims.claim("Hana", "t1", 1, false), "withdrawn")
      assert.isFalse(yield* claims.retired("Hana"))
    }).pipe(Effect.provide(DerivedClaims.layer))
  )

  it.effect("resumes a name for the published generation only, and holds it until then", () =>
    Effect.gen(function* () {
      const claims = yield* DerivedClaims
      yield* claims.claim("Mio", "a", 4, true)
      yield* claims.claim("Mio", "b", 5, false)
      yield* claims.reload(["Mio"], { ...none, resumeNames: ["Mio"], resumeGenerations: { Mio: 5 } })
      assert.isTrue(yield* claims.retired("Mio"), "the claim taken under generation 5 stays")
      yield* claims.release("Mio", "b")
      assert.isFalse(yield* claims.retired("Mio"))
      yield* claims.claim("Rin", "c", 1, false)
      yield* claims.reload(["Rin"], { ...none, resumeNames: ["Rin"] })
      assert.isFalse(yield* claims.retired("Rin"), "no generation known: every claim of the name is dropped")
    }).pipe(Effect.provide(DerivedClaims.layer))
  )
})
