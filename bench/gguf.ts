/**
 * `npm run bench -- gguf [--model FILE] [--threads N] [--prompt-tokens N] [--tokens N]`: the in-process model
 * tier's engine on one GGUF file (without `--model`, the tiny random-weight test model, whose figures only show
 * the plumbing's overhead). Reports load time, prompt tokens/s (a prompt of about N tokens of a usual vocabulary, evaluated once),
 * generated tokens/s (free text after the same prompt, which stays cached), the same under a JSON-schema
 * grammar, the process RSS (the worker shares the process), and the main thread's event-loop utilisation and
 * worst delay while the worker generates.
 */
import { Effect, Exit, Scope } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { monitorEventLoopDelay, performance } from "node:perf_hooks"
import { startWorker } from "../src/llm/gguf/WorkerClient.js"
import { writeTinyGguf } from "../test/support/tinyGguf.js"

const flag = (args: ReadonlyArray<string>, name: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : undefined
}

const factsSchema = {
  type: "array",
  items: {
    type: "object",
    required: ["text", "importance", "entity"],
    properties: {
      text: { type: "string", maxLength: 120 },
      importance: { type: "integer" },
      entity: { enum: ["master", "neko", "relationship"] }
    },
    additionalProperties: false
  },
  maxItems: 3
}

export const runGguf = async (args: ReadonlyArray<string>) => {
  const file = flag(args, "--model") ?? path.join(mkdtempSync(path.join(tmpdir(), "kioku-bench-gguf-")), "tiny.gguf")
  if (flag(args, "--model") === undefined) writeTinyGguf(file)
  const threads = Number(flag(args, "--threads") ?? 1)
  const promptTokens = Number(flag(args, "--prompt-tokens") ?? 500)
  const tokens = Number(flag(args, "--tokens") ?? 128)
  const scope = Effect.runSync(Scope.make())
  const run = <A>(e: Effect.Effect<A, never, Scope.Scope>) => Effect.runPromise(Scope.extend(e, scope))
  const started = performance.now()
  const worker = await run(startWorker({ threads, contextTokens: 8192, models: 1 }))
  const loaded = await run(worker.load(file))
  if (loaded._tag === "failed") throw new Error(loaded.message)
  const loadMs = performance.now() - started
  const sentence = "Master said the cat Miso sleeps on the keyboard every afternoon, and I laughed. "
  const content = sentence.repeat(Math.max(1, Math.round(promptTokens / 18)))
  const messages = [{ role: "user" as const, content: `${content}\nList what you learned about Master.` }]
  const timed = async (maxTokens: number, jsonSchema?: unknown) => {
    const t = performance.now()
    const reply = await run(worker.generate({ file, messages, maxTokens, ...(jsonSchema ? { jsonSchema } : {}) }))
    if (reply._tag === "failed") throw new Error(reply.message)
    return { ...reply, ms: performance.now() - t }
  }
  const prompt = await timed(1)
  const delay = monitorEventLoopDelay({ resolution: 5 })
  delay.enable()
  const elu0 = performance.eventLoopUtilization()
  const free = await timed(tokens)
  const elu = performance.eventLoopUtilization(elu0).utilization
  delay.disable()
  const json = await timed(tokens, factsSchema)
  const rate = (n: number, ms: number) => Math.round((n / (ms / 1000)) * 10) / 10
  const figures = {
    model: path.basename(file),
    template: loaded.template,
    threads,
    load_ms: Math.round(loadMs),
    prompt_tokens: prompt.promptTokens,
    prompt_tokens_per_s: rate(prompt.promptTokens, prompt.ms),
    generated_tokens: free.completionTokens,
    generated_tokens_per_s: rate(free.completionTokens, free.ms),
    json_tokens: json.completionTokens,
    json_tokens_per_s: rate(json.completionTokens, json.ms),
    json_grammar: json.grammar,
    rss_mb_process: Math.round(process.memoryUsage().rss / 1e6),
    event_loop_utilisation: Math.round(elu * 100) / 100,
    event_loop_max_delay_ms: Math.round(delay.max / 1e6)
  }
  process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`)
  await Effect.runPromise(Scope.close(scope, Exit.void))
}
