import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import type { StoredMessage } from "../../src/domain/Message.js"
import * as RecentStore from "../../src/recent/RecentStore.js"
import { stampOf } from "../../src/store/DurableFs.js"

const tempDir = () => mkdtempSync(path.join(tmpdir(), "kioku-recent-"))
const turn = (i: number): ReadonlyArray<StoredMessage> => [
  { type: "human", data: { content: `question ${i}` } },
  { type: "ai", data: { content: `answer ${i}` } }
]
const contents = (items: ReadonlyArray<StoredMessage>) => items.map((m) => m.data.content)
const onDisk = (file: string): ReadonlyArray<unknown> => {
  const parsed: unknown = JSON.parse(readFileSync(file, "utf8"))
  return Array.isArray(parsed) ? parsed.map((m: { data?: { content?: unknown } }) => m.data?.content) : []
}

describe("RecentStore", () => {
  it.effect("appends in place without changing what an earlier read returned", () =>
    Effect.gen(function* () {
      const store = RecentStore.make(tempDir(), { pendingCap: 100 })
      yield* store.appendEvents([{ eventId: "e1", messages: turn(1) }])
      const before = yield* store.read
      yield* store.appendEvents([{ eventId: "e2", messages: turn(2) }])
      yield* store.appendEvents([{ eventId: "e2", messages: turn(2) }])
      const after = yield* store.read
      assert.deepStrictEqual(contents(before.items), ["question 1", "answer 1"])
      assert.deepStrictEqual(contents(after.items), ["question 1", "answer 1", "question 2", "answer 2"])
      assert.deepStrictEqual(onDisk(store.file), contents(after.items))
    })
  )

  it.effect("extends a file another tool replaced, not the copy it held", () =>
    Effect.gen(function* () {
      const store = RecentStore.make(tempDir(), { pendingCap: 100 })
      yield* store.appendEvents([{ eventId: "e1", messages: turn(1) }])
      writeFileSync(store.file, JSON.stringify([{ type: "system", data: { content: "memo" } }], null, 2))
      yield* store.appendEvents([{ eventId: "e2", messages: turn(2) }])
      assert.deepStrictEqual(onDisk(store.file), ["memo", "question 2", "answer 2"])
      assert.deepStrictEqual(contents((yield* store.read).items), ["memo", "question 2", "answer 2"])
    })
  )
})

describe("stampOf", () => {
  it.effect("is none for a missing file and for a path under a regular file", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = path.join(dir, "plain.json")
      assert.isTrue(Option.isNone(yield* stampOf(file)))
      writeFileSync(file, "[]")
      assert.isTrue(Option.isSome(yield* stampOf(file)))
      assert.isTrue(Option.isNone(yield* stampOf(path.join(file, "below.json"))))
    })
  )
})
