/**
 * The main thread's side of the engine worker (Worker.ts): starts it with the scope (from dist/gguf-worker.mjs
 * next to the bundle, or from the TypeScript source through tsx when kioku runs unbundled), matches replies to
 * requests by id, and stops it with the scope. A generation that is interrupted (a timeout, a shutdown) is
 * aborted in the worker, and the interruption completes only once the worker has stopped it, so the model is
 * free for the next call. A worker that dies fails its pending calls and reports itself dead.
 */
import { Effect, Either, Runtime, Schema, type Scope } from "effect"
import { createRequire } from "node:module"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"
import { FromWorker, ToWorker, type Reply, type WorkerSettings } from "./Protocol.js"

type Generated = Extract<Reply, { readonly _tag: "generated" }>
type Failed = Extract<Reply, { readonly _tag: "failed" }>
type Loaded = Extract<Reply, { readonly _tag: "loaded" }>
type Request<T extends ToWorker["_tag"]> = Omit<Extract<ToWorker, { readonly _tag: T }>, "_tag" | "id">

export interface EngineWorker {
  readonly load: (file: string) => Effect.Effect<Loaded | Failed>
  readonly generate: (request: Request<"generate">) => Effect.Effect<Generated | Failed>
  /** Why the worker stopped, once it has. */
  readonly died: () => string | undefined
}

/** A worker started from the bundle, or (unbundled) an inline module that registers tsx and imports Worker.ts. */
const start = (settings: WorkerSettings): Worker => {
  const here = import.meta.url
  if (!here.endsWith(".ts")) return new Worker(new URL("./gguf-worker.mjs", here), { workerData: settings })
  const tsx = path.join(path.dirname(createRequire(here).resolve("tsx/package.json")), "dist/esm/api/index.mjs")
  const source = new URL("./Worker.ts", here).href
  const code = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then((m) => { m.register(); return import(${JSON.stringify(source)}) })`
  return new Worker(code, { eval: true, workerData: settings })
}

const unexpected = (reply: Reply): Failed => ({
  _tag: "failed",
  id: reply.id,
  reason: "engine",
  message: `unexpected ${reply._tag} reply`
})

const decodeReply = Schema.decodeUnknownEither(FromWorker)
const encodeRequest = Schema.encodeSync(ToWorker)

export const startWorker = (settings: WorkerSettings): Effect.Effect<EngineWorker, never, Scope.Scope> =>
  Effect.gen(function* () {
    const runtime = yield* Effect.runtime<never>()
    const fork = Runtime.runFork(runtime)
    const pending = new Map<number, (reply: Reply) => void>()
    let nextId = 1
    let death: string | undefined
    const fail = (why: string) => {
      if (death !== undefined) return
      death = why
      for (const [id, resolve] of pending) resolve({ _tag: "failed", id, reason: "engine", message: why })
      pending.clear()
      fork(
        Effect.logError("gguf engine worker stopped; its tiers are served by the local provider").pipe(
          Effect.annotateLogs({ error: why })
        )
      )
    }
    const worker = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const w = start(settings)
        w.on("message", (raw: unknown) => {
          const reply = decodeReply(raw)
          if (Either.isLeft(reply)) return
          const r = reply.right
          if (r._tag === "log") {
            return void fork(
              (r.level === "debug" ? Effect.logDebug : Effect.logWarning)("llama.cpp").pipe(
                Effect.annotateLogs({ message: r.message })
              )
            )
          }
          const resolve = pending.get(r.id)
          pending.delete(r.id)
          resolve?.(r)
        })
        w.on("error", (e) => fail(e.message))
        w.on("exit", (code) => fail(`exited with code ${code}`))
        return w
      }),
      (w) =>
        Effect.promise(async () => {
          if (death === undefined) {
            const id = nextId++
            const closed = new Promise<void>((resolve) => pending.set(id, () => resolve()))
            w.postMessage(encodeRequest({ _tag: "close", id }))
            await closed
          }
          death ??= "closed"
          await w.terminate()
        })
    )
    const ask = (message: (id: number) => ToWorker): { id: number; reply: Promise<Reply> } => {
      const id = nextId++
      const reply = new Promise<Reply>((resolve) => {
        if (death !== undefined) return resolve({ _tag: "failed", id, reason: "engine", message: death })
        pending.set(id, resolve)
        worker.postMessage(encodeRequest(message(id)))
      })
      return { id, reply }
    }
    return {
      died: () => death,
      load: (file) =>
        Effect.promise(() => ask((id) => ({ _tag: "load", id, file })).reply).pipe(
          Effect.map((r) => (r._tag === "loaded" || r._tag === "failed" ? r : unexpected(r)))
        ),
      generate: (request) =>
        Effect.async<Generated | Failed>((resume) => {
          const { id, reply } = ask((id) => ({ _tag: "generate", id, ...request }))
          void reply.then((r) =>
            resume(Effect.succeed(r._tag === "generated" || r._tag === "failed" ? r : unexpected(r)))
          )
          return Effect.promise(() => {
            if (death === undefined) worker.postMessage(encodeRequest({ _tag: "abort", id }))
            return reply.then(() => undefined)
          })
        })
    }
  })
