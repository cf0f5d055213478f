// Install step of the kioku package: onnxruntime-node ships every platform's CPU binaries in one tarball
// (about 240 MB that this machine never loads). Keeps bin/napi-v6/<platform>/<arch> of this machine only.
// KIOKU_KEEP_ONNX_PLATFORMS=1 keeps them all (a node_modules copied to another platform); KIOKU_ONNX_DIR points
// at another onnxruntime-node directory (tests). Never fails an install: any problem leaves the files as they are.
import { existsSync, readdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"

const keepAll = process.env.KIOKU_KEEP_ONNX_PLATFORMS === "1"
const locate = () => {
  if (process.env.KIOKU_ONNX_DIR) return process.env.KIOKU_ONNX_DIR
  return path.dirname(createRequire(import.meta.url).resolve("onnxruntime-node/package.json"))
}

try {
  const bin = path.join(locate(), "bin", "napi-v6")
  const own = path.join(bin, process.platform, process.arch)
  if (!keepAll && existsSync(own)) {
    let freed = 0
    for (const platform of readdirSync(bin)) {
      const dir = path.join(bin, platform)
      for (const arch of readdirSync(dir)) {
        if (platform === process.platform && arch === process.arch) continue
        rmSync(path.join(dir, arch), { recursive: true, force: true })
        freed++
      }
      if (platform !== process.platform) rmSync(dir, { recursive: true, force: true })
    }
    if (freed > 0) console.log(`kioku: kept onnxruntime-node's ${process.platform}/${process.arch} binaries only`)
  }
} catch {
  // onnxruntime-node absent or laid out differently: nothing to prune.
}
