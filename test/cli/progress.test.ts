import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { bar, makeProgress } from "../../src/cli/Progress.js"

const sink = (isTTY: boolean) => {
  const written: Array<string> = []
  return { written, stream: { isTTY, columns: 100, write: (t: string) => written.push(t) } }
}

describe("progress on stderr", () => {
  it.effect("draws a bar in place on a terminal and clears it before an ordinary line", () =>
    Effect.gen(function* () {
      const { written, stream } = sink(true)
      const p = makeProgress(stream)
      yield* p.step(0, 4, "conversation 1")
      yield* p.step(2, 4, "conversation 3")
      yield* p.line("conversation 3 done")
      assert.deepStrictEqual(written, [
        `${bar(0, 4)} 0/4  conversation 1`,
        "\r\x1b[2K",
        `${bar(2, 4)} 2/4  conversation 3`,
        "\r\x1b[2K",
        "conversation 3 done\n"
      ])
      assert.strictEqual(bar(2, 4), `[${"#".repeat(12)}${"-".repeat(12)}]`)
    })
  )

  it.effect("writes one plain line per step when not a terminal", () =>
    Effect.gen(function* () {
      const { written, stream } = sink(false)
      const p = makeProgress(stream)
      yield* p.step(1, 10, "conversation 2")
      yield* p.line("done")
      assert.deepStrictEqual(written, [`${bar(1, 10)}  1/10  conversation 2\n`, "done\n"])
    })
  )
})
