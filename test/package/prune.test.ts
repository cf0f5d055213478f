/**
 * The install step that keeps only this machine's onnxruntime-node binaries: run as npm runs it, on a planted
 * onnxruntime-node layout in a temp dir (every platform's directory with a file in it), it removes every other
 * platform and architecture and keeps this one; with KIOKU_KEEP_ONNX_PLATFORMS=1 it keeps them all; on a layout
 * without this machine's binaries it touches nothing, and it never fails.
 */
import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"

const script = path.resolve(import.meta.dirname, "../../scripts/prune-onnxruntime.mjs")
const layouts = ["darwin/arm64", "win32/x64", "win32/arm64", "linux/arm64", `${process.platform}/${process.arch}`]

const plant = (own: boolean) => {
  const root = mkdtempSync(path.join(tmpdir(), "kioku-prune-"))
  for (const l of layouts.filter((l) => own || l !== `${process.platform}/${process.arch}`)) {
    mkdirSync(path.join(root, "bin", "napi-v6", l), { recursive: true })
    writeFileSync(path.join(root, "bin", "napi-v6", l, "onnxruntime_binding.node"), "x")
  }
  return root
}
const left = (root: string) =>
  readdirSync(path.join(root, "bin", "napi-v6")).flatMap((p) =>
    readdirSync(path.join(root, "bin", "napi-v6", p)).map((a) => `${p}/${a}`)
  )
const run = (root: string, env: Record<string, string> = {}) =>
  execFileSync(process.execPath, [script], { env: { ...process.env, KIOKU_ONNX_DIR: root, ...env }, encoding: "utf8" })

describe("onnxruntime-node prune at install", () => {
  it("keeps this machine's binaries only, all of them on request, and nothing changes without them", () => {
    const root = plant(true)
    assert.include(run(root), "kept onnxruntime-node's")
    assert.deepStrictEqual(left(root), [`${process.platform}/${process.arch}`])
    assert.isTrue(
      existsSync(path.join(root, "bin", "napi-v6", process.platform, process.arch, "onnxruntime_binding.node"))
    )
    rmSync(root, { recursive: true })

    const kept = plant(true)
    run(kept, { KIOKU_KEEP_ONNX_PLATFORMS: "1" })
    assert.strictEqual(left(kept).length, new Set(layouts).size)
    rmSync(kept, { recursive: true })

    const foreign = plant(false)
    run(foreign)
    assert.strictEqual(left(foreign).length, new Set(layouts).size - 1, "without this machine's binaries, nothing goes")
    rmSync(foreign, { recursive: true })
    assert.strictEqual(run(path.join(tmpdir(), "kioku-no-such-onnx")), "", "a missing package is not an error")
  })
})
