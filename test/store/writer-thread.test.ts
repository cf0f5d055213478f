import { assert, describe, it } from "@effect/vitest"
import { Effect, Either } from "effect"
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { syncDirOnThread, syncFileOnThread, writeAtomicOnThread } from "../../src/store/WriterThread.js"

const tempDir = () => mkdtempSync(path.join(tmpdir(), "kioku-writer-"))

describe("atomic replaces and fsyncs on the writer threads", () => {
  it.effect("replaces a file whole, text or bytes, and leaves no temp file", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = path.join(dir, "view.json")
      writeFileSync(file, "old")
      yield* writeAtomicOnThread(file, '{"n": "小天"}')
      assert.strictEqual(readFileSync(file, "utf8"), '{"n": "小天"}')
      yield* writeAtomicOnThread(file, new TextEncoder().encode("bytes"), "content")
      assert.strictEqual(readFileSync(file, "utf8"), "bytes")
      assert.deepStrictEqual(readdirSync(dir), ["view.json"])
    })
  )

  it.effect("keeps the order of the writes of one file, started together", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const file = path.join(dir, "recent.json")
      yield* Effect.all(
        Array.from({ length: 40 }, (_, i) => writeAtomicOnThread(file, `write ${i}`, "content")),
        { concurrency: "unbounded", discard: true }
      )
      assert.strictEqual(readFileSync(file, "utf8"), "write 39")
      assert.deepStrictEqual(readdirSync(dir), ["recent.json"])
    })
  )

  it.effect("writes files of many directories at once", () =>
    Effect.gen(function* () {
      const root = tempDir()
      const files = Array.from({ length: 20 }, (_, i) => path.join(root, `c${i}.json`))
      yield* Effect.forEach(files, (f, i) => writeAtomicOnThread(f, String(i)), { concurrency: "unbounded" })
      files.forEach((f, i) => assert.strictEqual(readFileSync(f, "utf8"), String(i)))
    })
  )

  it.effect("reports a failed replace as a StoreError, after its temp file is gone", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      const failed = yield* Effect.either(writeAtomicOnThread(path.join(dir, "missing", "view.json"), "x"))
      assert.isTrue(Either.isLeft(failed))
      if (Either.isLeft(failed)) {
        assert.strictEqual(failed.left._tag, "StoreError")
        assert.strictEqual(failed.left.op, "write")
        assert.match(failed.left.message, /ENOENT/)
      }
      assert.deepStrictEqual(readdirSync(dir), [])
    })
  )

  it.effect("fsyncs a file (a missing one is fine) and a directory (a missing one is not)", () =>
    Effect.gen(function* () {
      const dir = tempDir()
      writeFileSync(path.join(dir, "wal"), "frames")
      yield* syncFileOnThread(path.join(dir, "wal"))
      yield* syncFileOnThread(path.join(dir, "absent"))
      yield* syncDirOnThread(dir)
      const failed = yield* Effect.either(syncDirOnThread(path.join(dir, "gone")))
      assert.isTrue(Either.isLeft(failed))
      if (Either.isLeft(failed)) assert.strictEqual(failed.left.op, "fsync-dir")
    })
  )
})
