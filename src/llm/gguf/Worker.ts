/**
 * The engine worker: a worker thread that owns node-llama-cpp (Engine.ts), so prompt templating, grammar
 * building and the per-token bookkeeping of generation never run on the server's event loop. It loads the
 * files it is asked to, answers one `generate` per model at a time (the main thread queues), checks each prompt
 * against the context, stops a generation on `abort`, and frees everything on `close`. Bundled as
 * dist/gguf-worker.mjs.
 */
import { Effect, Either, Exit, Schema, Scope } from "effect"
import type { Llama } from "node-llama-cpp"
import { parentPort, workerData } from "node:worker_threads"
import { grammarSchema } from "./Grammar.js"
import { loadLlama, loadModel, type LoadedModel, type PreparedGrammar } from "./Engine.js"
import { FromWorker, ToWorker, WorkerSettings } from "./Protocol.js"

/** Tokens the chat template adds around each message, reserved when checking a prompt against the context. */
const templateTokensPerMessage = 8

const port = parentPort
if (port === null) throw new Error("Worker.ts runs as a worker thread")
const settings = Schema.decodeUnknownSync(WorkerSettings)(workerData)
const encode = Schema.encodeSync(FromWorker)
const send = (message: FromWorker) => port.postMessage(encode(message))
const log = (level: "debug" | "warning", message: string) => send({ _tag: "log", level, message })
const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

const scope = Effect.runSync(Scope.make())
let llama: Promise<Either.Either<Llama, string>> | undefined
const models = new Map<string, LoadedModel>()
const running = new Map<number, AbortController>()

const engine = () =>
  (llama ??= Effect.runPromise(
    Scope.extend(loadLlama(settings, settings.models, log), scope).pipe(
      Effect.mapError((e) => e.message),
      Effect.either
    )
  ))

const load = async (id: number, file: string) => {
  const lib = await engine()
  if (Either.isLeft(lib)) return send({ _tag: "failed", id, reason: "unavailable", message: lib.left })
  const model = await Effect.runPromise(Effect.either(loadModel(lib.right, file, settings)))
  if (Either.isLeft(model)) return send({ _tag: "failed", id, reason: "unavailable", message: model.left.message })
  models.set(file, model.right)
  send({ _tag: "loaded", id, template: model.right.template, contextTokens: model.right.contextTokens })
}

const generate = async (request: Extract<ToWorker, { readonly _tag: "generate" }>) => {
  const { id } = request
  const model = models.get(request.file)
  if (model === undefined) return send({ _tag: "failed", id, reason: "engine", message: "model not loaded" })
  const promptTokens = model.countTokens(request.messages) + templateTokensPerMessage * (request.messages.length + 1)
  const room = model.contextTokens - promptTokens
  if (room < 16) {
    const message = `prompt of about ${promptTokens} tokens does not fit the ${model.contextTokens}-token context`
    return send({ _tag: "failed", id, reason: "prompt_too_long", message })
  }
  let grammar: PreparedGrammar | undefined
  let grammarError: string | undefined
  if (request.jsonSchema !== undefined) {
    grammar = await model.prepareGrammar(grammarSchema(request.jsonSchema)).catch((e: unknown) => {
      grammarError = describe(e)
      return undefined
    })
  }
  const controller = new AbortController()
  running.set(id, controller)
  try {
    const result = await model.generate(request.messages, {
      maxTokens: Math.min(request.maxTokens, room),
      grammar,
      signal: controller.signal
    })
    send({
      _tag: "generated",
      id,
      ...result,
      grammar: grammar !== undefined ? "schema" : grammarError !== undefined ? "failed" : "none",
      ...(grammarError !== undefined ? { grammarError } : {})
    })
  } catch (e) {
    send({ _tag: "failed", id, reason: "engine", message: describe(e) })
  } finally {
    running.delete(id)
  }
}

port.on("message", (raw: unknown) => {
  const message = Schema.decodeUnknownEither(ToWorker)(raw)
  if (Either.isLeft(message)) return log("warning", `engine worker: unreadable request: ${message.left.message}`)
  const m = message.right
  switch (m._tag) {
    case "load":
      return void load(m.id, m.file)
    case "generate":
      return void generate(m)
    case "abort":
      return running.get(m.id)?.abort()
    case "close":
      running.forEach((c) => c.abort())
      return void Effect.runPromise(Scope.close(scope, Exit.void)).finally(() => send({ _tag: "closed", id: m.id }))
  }
})
