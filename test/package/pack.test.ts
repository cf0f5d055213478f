/**
 * The published package as a host project meets it: `npm pack` of the built dist/ (declarations rebuilt first),
 * the tarball unpacked into a scratch project's node_modules with kioku's dependencies linked from this repo's
 * (no download), then a host file importing `kioku`, `kioku/mcp`, `kioku/client` and `kioku/ai` type-checked by TypeScript under settings
 * unlike kioku's (`skipLibCheck: false`, no `exactOptionalPropertyTypes`), compiled and run with node: it writes
 * a turn through the library, reads it back, and reads it again as the MCP `get_context` tool over an
 * in-memory transport; then, against a kioku server, it writes a turn through the typed client and reads it back
 * through the AI SDK tool `get_context`. The tarball must carry only what a host needs.
 */
import { assert, describe, it } from "@effect/vitest"
import { Schema } from "effect"
import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { startServer } from "../support/server.js"

const repo = path.resolve(import.meta.dirname, "../..")
const tsc = path.join(repo, "node_modules/typescript/bin/tsc")

const Manifest = Schema.parseJson(
  Schema.Struct({ dependencies: Schema.Record({ key: Schema.String, value: Schema.String }) })
)
const Packed = Schema.parseJson(
  Schema.Tuple(Schema.Struct({ filename: Schema.String, files: Schema.Array(Schema.Struct({ path: Schema.String })) }))
)
const HostOutput = Schema.parseJson(
  Schema.Struct({
    cached: Schema.Number,
    dialog: Schema.String,
    mode: Schema.String,
    tools: Schema.Array(Schema.String),
    context: Schema.String,
    service: Schema.String,
    remoteCount: Schema.Number,
    refusal: Schema.String,
    aiTools: Schema.Array(Schema.String),
    remoteContext: Schema.String
  })
)

const hostSource = `import { createMemoryRuntime, type MemoryRuntime, type WriteInput } from "kioku"
import { createMcpServer, type McpServerOptions } from "kioku/mcp"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js"
import { createClient, orThrow, type KiokuClient } from "kioku/client"
import { memoryTools } from "kioku/ai"


const dataDir: string = process.argv[2] ?? ""
const config = { vectors_enabled: false }
const turn: WriteInput = {
  messages: [
    { role: "user", content: "I moved to Osaka last spring" },
    { role: "assistant", content: "How exciting!" }
  ]
}
const memory: MemoryRuntime = await createMemoryRuntime({ dataDir, config, backgroundMaintenance: false })
const cached = (await memory.cache("Mio", turn)).count
const dialog = await memory.newDialog("Mio")
await memory.close()

const options: McpServerOptions = { dataDir, character: "Mio", language: "en", config }
const server = await createMcpServer(options)
const [clientSide, serverSide] = InMemoryTransport.createLinkedPair()
await server.connect(serverSide)
const client = new Client({ name: "host", version: "1.0.0" })
await client.connect(clientSide)
const tools = (await client.listTools()).tools.map((t) => t.name)
const answer = await client.callTool({ name: "get_context", arguments: {} })
const content = Array.isArray(answer.content) ? answer.content : []
const context = content.map((c: { type: string; text?: string }) => (c.type === "text" ? (c.text ?? "") : "")).join("")
await client.close()
await server.close()

const kioku: KiokuClient = createClient({ baseUrl: process.argv[3] ?? "" })
const service = orThrow(await kioku.health()).service
const input_history = JSON.stringify([{ role: "user", content: "I play the cello on Sundays" }])
const remoteCount = orThrow(await kioku.cache({ name: "Rin", body: { input_history } })).count
const bad = await kioku.cache({ name: "a/b", body: { input_history } })
const refusal = bad.ok ? "" : \`\${bad.error.reason} \${bad.status}\`
const ai = memoryTools({ client: kioku, character: "Rin" })
const remoteContext = String(await ai.get_context.execute?.({}, { toolCallId: "1", messages: [] }))
const aiTools = Object.keys(ai)
process.stdout.write(
  JSON.stringify({ cached, dialog, mode: server.mode, tools, context, service, remoteCount, refusal, aiTools, remoteContext })
)
`

const hostConfig = {
  compilerOptions: {
    target: "ES2022",
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: false,
    types: ["node"],
    outDir: "out"
  },
  files: ["host.ts"]
}

/** Runs a node script; a failure carries its output (tsc reports on stdout). */
const run = (file: string, args: ReadonlyArray<string>, cwd: string) => {
  try {
    return execFileSync(process.execPath, [file, ...args], { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })
  } catch (e) {
    const out = (key: string) => (typeof e === "object" && e !== null && key in e ? String(Reflect.get(e, key)) : "")
    throw new Error(`${path.basename(file)} failed:\n${out("stdout")}\n${out("stderr")}`)
  }
}

/** Links `name` (scoped or not) from the repo's node_modules into `modules`. */
const link = (modules: string, name: string) => {
  const target = path.join(modules, name)
  mkdirSync(path.dirname(target), { recursive: true })
  symlinkSync(path.join(repo, "node_modules", name), target, "dir")
}

describe("the packed package", () => {
  it("installs into a host project, type-checks under the host's settings and runs every entry", async () => {
    for (const entry of ["lib.mjs", "mcp.mjs", "client.mjs", "ai.mjs", "kioku.mjs"])
      assert.isTrue(existsSync(path.join(repo, "dist", entry)), `dist/${entry} missing: run npm run build`)
    const temp = mkdtempSync(path.join(tmpdir(), "kioku-pack-"))
    try {
      run(tsc, ["-p", "tsconfig.build.json"], repo)
      const packed = Schema.decodeUnknownSync(Packed)(
        execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", temp], {
          cwd: repo,
          encoding: "utf8"
        })
      )[0]
      const files = packed.files.map((f) => f.path)
      assert.includeMembers(files, [
        "package.json",
        "README.md",
        "dist/lib.mjs",
        "dist/mcp.mjs",
        "dist/kioku.mjs",
        "dist/web/memory-browser.js",
        "dist/types/src/lib.d.ts",
        "dist/types/src/mcp/Host.d.ts",
        "dist/client.mjs",
        "dist/ai.mjs",
        "dist/types/src/api/Client.d.ts",
        "dist/types/src/ai/Tools.d.ts"
      ])
      const installStep = "scripts/prune-onnxruntime.mjs" // the postinstall, docs/package.md
      assert.include(files, installStep)
      const stray = files.filter(
        (f) => !(f.startsWith("dist/") || f === "package.json" || f === installStep || /^(README|LICENSE)/.test(f))
      )
      assert.deepStrictEqual(stray, [])

      const project = path.join(temp, "host")
      const modules = path.join(project, "node_modules")
      const kioku = path.join(modules, "kioku")
      mkdirSync(kioku, { recursive: true })
      execFileSync("tar", ["-xzf", path.join(temp, packed.filename), "-C", kioku, "--strip-components=1"])
      const manifest = Schema.decodeUnknownSync(Manifest)(readFileSync(path.join(kioku, "package.json"), "utf8"))
      for (const name of Object.keys(manifest.dependencies))
        if (existsSync(path.join(repo, "node_modules", name))) link(modules, name)
      link(modules, "@types/node")
      link(modules, "ai") // kioku/ai's optional peer, which a host using it installs
      link(modules, "@types/json-schema") // ai's declarations import json-schema's types (skipLibCheck: false)
      writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "host", private: true, type: "module" }))
      writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify(hostConfig))
      writeFileSync(path.join(project, "host.ts"), hostSource)

      run(tsc, ["-p", "."], project)
      const server = await startServer(path.join(temp, "server-memory"))
      const out = await Promise.resolve()
        .then(() =>
          Schema.decodeUnknownSync(HostOutput)(run("out/host.js", [path.join(temp, "memory"), server.url], project))
        )
        .finally(() => server.stop())
      assert.strictEqual(out.cached, 2)
      assert.include(out.dialog, "I moved to Osaka last spring")
      assert.strictEqual(out.mode, "embedded")
      assert.includeMembers([...out.tools], ["remember", "recall_memory", "get_context", "list_characters", "forget"])
      assert.include(out.context, "I moved to Osaka last spring")
      assert.strictEqual(out.service, "memory")
      assert.strictEqual(out.remoteCount, 1)
      assert.strictEqual(out.refusal, "refused 400")
      assert.deepStrictEqual(out.aiTools, ["remember", "recall_memory", "get_context", "list_characters", "forget"])
      assert.include(out.remoteContext, "I play the cello on Sundays")
    } finally {
      rmSync(temp, { recursive: true, force: true })
    }
  })
})
