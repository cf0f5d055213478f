/**
 * node-llama-cpp behind the in-process model tier, as the engine worker (Worker.ts) runs it: the CPU build
 * shipped inside its npm package (never a GPU build, never a download or a compile: `build: "never"`,
 * `skipDownload`), one loaded model and one context sequence per GGUF file, and the chat template the file
 * carries (node-llama-cpp picks the matching chat wrapper). A JSON task's answer is sampled under the grammar
 * of its output schema. The library is imported only when a tier names a GGUF file.
 */
import { Effect, Option, type Scope } from "effect"
import type { ChatHistoryItem, Llama, LlamaChat, LlamaContextSequence, LlamaGrammar } from "node-llama-cpp"
import type { ChatMessage } from "../LlmClient.js"
import type { GrammarRoot } from "./Grammar.js"

export interface EngineSettings {
  /** Inference threads per model (`llm_gguf_threads`). */
  readonly threads: number
  /** Context window per model (`llm_gguf_context_tokens`), capped at the model's training context. */
  readonly contextTokens: number
}

export interface Generation {
  readonly text: string
  readonly promptTokens: number
  readonly completionTokens: number
  /** `length`: stopped at the token limit. */
  readonly stop: "done" | "length"
}

/** A grammar built for one model's vocabulary (kept per schema, so a task's grammar is built once). */
export class PreparedGrammar {
  constructor(readonly grammar: LlamaGrammar) {}
}

export interface GenerateOptions {
  readonly maxTokens: number
  readonly grammar?: PreparedGrammar | undefined
  readonly signal: AbortSignal
}

export interface LoadedModel {
  readonly file: string
  /** The chat wrapper node-llama-cpp chose from the file's template, e.g. `ChatML`. */
  readonly template: string
  readonly contextTokens: number
  readonly trainContextTokens: number
  /** Tokens of the messages' text (without the template's own markers). */
  readonly countTokens: (messages: ReadonlyArray<ChatMessage>) => number
  /** The sampling grammar of a JSON schema; rejects when llama.cpp cannot parse it. */
  readonly prepareGrammar: (schema: GrammarRoot) => Promise<PreparedGrammar>
  /** One generation; callers queue for the model (GgufLlm.ts), since its one sequence serves one at a time. */
  readonly generate: (messages: ReadonlyArray<ChatMessage>, options: GenerateOptions) => Promise<Generation>
}

export class EngineUnavailable {
  readonly _tag = "EngineUnavailable"
  constructor(readonly message: string) {}
}

const describe = (e: unknown) => (e instanceof Error ? e.message : String(e))

const history = (messages: ReadonlyArray<ChatMessage>): Array<ChatHistoryItem> => [
  ...messages.map(
    (m): ChatHistoryItem =>
      m.role === "system"
        ? { type: "system", text: m.content }
        : m.role === "user"
          ? { type: "user", text: m.content }
          : { type: "model", response: [m.content] }
  ),
  { type: "model", response: [] }
]

/** How long closing waits for llama.cpp to release its instance. */
const disposeWait = "3 seconds"

/** The CPU build of llama.cpp, released with the scope. Fails when node-llama-cpp or its binary is missing. */
export const loadLlama = (
  settings: EngineSettings,
  models: number,
  log: (level: "debug" | "warning", message: string) => void
): Effect.Effect<Llama, EngineUnavailable, Scope.Scope> =>
  Effect.gen(function* () {
    const lib = yield* Effect.tryPromise({
      try: () => import("node-llama-cpp"),
      catch: (e) =>
        new EngineUnavailable(
          `node-llama-cpp is not installed (npm install --save-exact node-llama-cpp@3.21.1): ${describe(e)}`
        )
    })
    return yield* Effect.acquireRelease(
      Effect.tryPromise({
        try: () =>
          lib.getLlama({
            gpu: false,
            build: "never",
            usePrebuiltBinaries: true,
            skipDownload: true,
            progressLogs: false,
            maxThreads: settings.threads * Math.max(1, models),
            logLevel: lib.LlamaLogLevel.warn,
            logger: (level, message) => {
              const text = message.trim()
              if (text !== "") log(level === lib.LlamaLogLevel.warn ? "debug" : "warning", text)
            }
          }),
        catch: (e) =>
          new EngineUnavailable(
            `no usable prebuilt CPU binary of node-llama-cpp for ${process.platform}-${process.arch} ` +
              `(kioku never downloads or compiles one): ${describe(e)}`
          )
      }),
      // A model whose load failed keeps a hold on the instance once it is collected, so dispose can wait forever
      // (node-llama-cpp 3.21.1); the worker is terminated after close either way.
      (llama) =>
        Effect.interruptible(Effect.promise(() => llama.dispose())).pipe(
          Effect.timeoutOption(disposeWait),
          Effect.tap(Option.match({ onNone: () => log("debug", "llama.cpp not released in time"), onSome: () => {} }))
        )
    )
  })

/** Loads one GGUF file with its context; freed with the llama instance. */
export const loadModel = (llama: Llama, file: string, settings: EngineSettings) =>
  Effect.tryPromise({
    try: async (): Promise<LoadedModel> => {
      const lib = await import("node-llama-cpp")
      const model = await llama.loadModel({ modelPath: file, gpuLayers: 0 })
      const contextTokens = Math.max(256, Math.min(settings.contextTokens, model.trainContextSize))
      const context = await model.createContext({ contextSize: contextTokens, threads: settings.threads, sequences: 1 })
      const sequence: LlamaContextSequence = context.getSequence()
      const chat: LlamaChat = new lib.LlamaChat({
        contextSequence: sequence,
        chatWrapper: lib.resolveChatWrapper(model)
      })
      const grammars = new Map<string, Promise<PreparedGrammar>>()
      const prepareGrammar = (schema: GrammarRoot) => {
        const key = JSON.stringify(schema)
        let grammar = grammars.get(key)
        if (grammar === undefined) {
          // GrammarRoot is the structural subset of node-llama-cpp's GbnfJsonSchema (Grammar.ts).
          grammar = llama
            .createGrammarForJsonSchema(schema as Parameters<Llama["createGrammarForJsonSchema"]>[0])
            .then((g) => new PreparedGrammar(g))
          grammars.set(key, grammar)
          grammar.catch(() => grammars.delete(key))
        }
        return grammar
      }
      return {
        file,
        template: chat.chatWrapper.wrapperName,
        contextTokens,
        trainContextTokens: model.trainContextSize,
        prepareGrammar,
        countTokens: (messages) => messages.reduce((n, m) => n + model.tokenize(m.content).length, 0),
        generate: async (messages, options) => {
          const before = sequence.tokenMeter.getState()
          const result = await chat.generateResponse(history(messages), {
            maxTokens: options.maxTokens,
            signal: options.signal,
            ...(options.grammar !== undefined ? { grammar: options.grammar.grammar } : {})
          })
          const after = sequence.tokenMeter.getState()
          return {
            text: result.response,
            promptTokens: after.usedInputTokens - before.usedInputTokens,
            completionTokens: after.usedOutputTokens - before.usedOutputTokens,
            stop: result.metadata.stopReason === "maxTokens" ? "length" : "done"
          }
        }
      }
    },
    catch: (e) => new EngineUnavailable(describe(e))
  })
