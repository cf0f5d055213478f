/**
 * `kioku/ai`'s tools for the AI SDK (ai 6) over the typed client of a real server: the five tools carry
 * their JSON Schemas, `remember` then `recall_memory` and `get_context` return the statement, a refused call
 * throws, and `generateText` with a scripted model (the AI SDK's own mock, the only stand-in) calls a tool
 * through the SDK's loop and hands its answer back to the model.
 */
import { assert, describe, it } from "@effect/vitest"
import { generateText, stepCountIs, type ModelMessage } from "ai"
import { MockLanguageModelV3 } from "ai/test"
import { createClient } from "../../src/api/Client.js"
import { KiokuToolError, memoryTools } from "../../src/ai/Tools.js"
import { serverSuite } from "../support/server.js"

const options = { toolCallId: "call-1", messages: [] as Array<ModelMessage> }
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 }
}

describe("kioku/ai memory tools", () => {
  const { temp, start } = serverSuite()

  it("remembers, recalls, gives the context and lists characters over the client; a refusal throws", async () => {
    const server = await start(temp.memory)
    const tools = memoryTools({ client: createClient({ baseUrl: server.url }), character: "Tian" })
    assert.deepStrictEqual(Object.keys(tools), [
      "remember",
      "recall_memory",
      "get_context",
      "list_characters",
      "forget"
    ])
    assert.include(JSON.stringify(await tools.remember.inputSchema), '"statement"')
    const run = async (name: keyof typeof tools, input: Readonly<Record<string, unknown>>) => {
      const execute = tools[name].execute
      if (execute === undefined) return assert.fail(`${name} has no execute`)
      return String(await execute(input, options))
    }
    assert.include(await run("remember", { statement: "I adopted a cat named Mochi" }), "Remembered 1 message(s)")
    assert.include(await run("recall_memory", { query: "cat Mochi" }), "Mochi")
    assert.include(await run("get_context", {}), "I adopted a cat named Mochi")
    assert.include(await run("list_characters", {}), "Tian")
    const refused = await run("forget", { kind: "fact", id: "fact_none" }).then(
      () => undefined,
      (e: unknown) => e
    )
    assert.instanceOf(refused, KiokuToolError)
    assert.include(String(refused), "fact_none")
  })

  it("runs inside generateText: the model calls recall_memory and reads its answer", async () => {
    const server = await start(temp.memory)
    const client = createClient({ baseUrl: server.url })
    const tools = memoryTools({ client, character: "Mio" })
    await tools.remember.execute?.({ statement: "My sister lives in Nagoya" }, options)
    const model = new MockLanguageModelV3({
      doGenerate: [
        {
          content: [
            { type: "tool-call", toolCallId: "c1", toolName: "recall_memory", input: '{"query":"sister Nagoya"}' }
          ],
          finishReason: { unified: "tool-calls", raw: undefined },
          usage,
          warnings: []
        },
        {
          content: [{ type: "text", text: "Your sister lives in Nagoya." }],
          finishReason: { unified: "stop", raw: undefined },
          usage,
          warnings: []
        }
      ]
    })
    const result = await generateText({ model, tools, prompt: "Where does my sister live?", stopWhen: stepCountIs(3) })
    assert.strictEqual(result.text, "Your sister lives in Nagoya.")
    const toolResults = result.steps.flatMap((s) => s.toolResults)
    assert.strictEqual(toolResults[0]?.toolName, "recall_memory")
    assert.include(String(toolResults[0]?.output), "Nagoya")
    const second = JSON.stringify(model.doGenerateCalls[1]?.prompt)
    assert.include(second, "Nagoya", "the tool's answer went back to the model")
  })
})
