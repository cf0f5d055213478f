import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { promisify } from "node:util"
import { distBin, vectorEnv } from "../support/server.js"

const run = promisify(execFile)

describe("kioku demo", () => {
  const demo = async (dir: string, language: string) =>
    run(process.execPath, [distBin, "demo", "--data-dir", dir, "--language", language], {
      env: { ...process.env, ...(await vectorEnv()) },
      encoding: "utf8",
      timeout: 120_000
    })

  it("extracts facts, forms a reflection, renders the context and recalls by meaning and by time", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "kioku-demo-"))
    try {
      const { stdout } = await demo(dir, "en")
      assert.match(stdout, /\[1\/8\] starting kioku/)
      assert.match(stdout, /\[8\/8\] done/)
      assert.include(stdout, "Alex is allergic to peanuts")
      assert.match(stdout, /Reflections \(1\):\n {2}- Alex is a dedicated runner/)
      assert.include(stdout, "======Tian's Inner Thoughts======")
      const meaning = stdout.slice(stdout.indexOf("Recall by meaning"), stdout.indexOf("Recall by time"))
      assert.match(meaning, /jogging|marathon|running/)
      const byTime = stdout.slice(stdout.indexOf("Recall by time"))
      assert.include(byTime, "Mochi")
      assert.include(stdout, `--data-dir ${JSON.stringify(dir)}`)
      const again = await demo(dir, "en").then(
        () => undefined,
        (e: { stderr: string }) => e.stderr
      )
      assert.include(again ?? "", "already holds the demo")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("runs in Japanese and in Chinese", async () => {
    for (const [language, fact] of [
      ["ja", "ピーナッツ"],
      ["zh", "花生"]
    ] as const) {
      const dir = mkdtempSync(path.join(os.tmpdir(), "kioku-demo-"))
      try {
        const { stdout } = await demo(dir, language)
        assert.include(stdout.slice(stdout.indexOf("Facts ("), stdout.indexOf("Reflections (")), fact, language)
        assert.match(stdout, /\[8\/8\] done/)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  })
})
