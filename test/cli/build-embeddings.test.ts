import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { existsSync, mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { distBin } from "../support/server.js"

const run = promisify(execFile)

describe("kioku build-embeddings", () => {
  it("builds the default model with a line per step on stderr, then reuses it", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kioku-build-"))
    try {
      const out = path.join(dir, "model")
      const build = () =>
        run(process.execPath, [distBin, "build-embeddings", "--out", out], { encoding: "utf8", timeout: 120_000 })
      const first = await build()
      assert.match(first.stderr, /1\/3 +converting use-lite/)
      assert.match(first.stderr, /3\/3 +built/)
      assert.isTrue(existsSync(path.join(out, "model.onnx")))
      assert.strictEqual(JSON.parse(first.stdout.trim()).result, "built")
      const second = await build()
      assert.match(second.stderr, /3\/3 +reused/)
      assert.notMatch(second.stderr, /converting/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
