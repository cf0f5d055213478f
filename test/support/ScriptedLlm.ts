/**
 * A scripted `LlmClient` for tests: answers are queued per task (or for any task), may fail or be delayed
 * (the delay runs on Effect's Clock, so `TestClock` drives it), and every request is recorded.
 */
import { Effect, Layer, Ref, type Duration } from "effect"
import { LlmClient, LlmError, type ChatRequest } from "../../src/llm/LlmClient.js"

export type Scripted =
  | { readonly answer: string; readonly delay?: Duration.DurationInput }
  | { readonly fail: LlmError["reason"]; readonly status?: number; readonly delay?: Duration.DurationInput }

export interface Script {
  /** Queues answers for one task, or for any task with `"*"`. */
  readonly push: (task: string, ...answers: ReadonlyArray<Scripted>) => Effect.Effect<void>
  readonly requests: Effect.Effect<ReadonlyArray<ChatRequest>>
}

export const make = Effect.gen(function* () {
  const queues = yield* Ref.make(new Map<string, ReadonlyArray<Scripted>>())
  const seen = yield* Ref.make<ReadonlyArray<ChatRequest>>([])
  const take = (task: string) =>
    Ref.modify(queues, (map) => {
      const key = (map.get(task)?.length ?? 0) > 0 ? task : "*"
      const [next, ...rest] = map.get(key) ?? []
      const copy = new Map(map)
      copy.set(key, rest)
      return [next, copy] as const
    })
  const script: Script = {
    push: (task, ...answers) =>
      Ref.update(queues, (map) => new Map(map).set(task, [...(map.get(task) ?? []), ...answers])),
    requests: Ref.get(seen)
  }
  const client = LlmClient.of({
    configured: () => true,
    complete: (request) =>
      Effect.gen(function* () {
        yield* Ref.update(seen, (all) => [...all, request])
        const next = yield* take(request.task)
        if (next === undefined) {
          return yield* new LlmError({ task: request.task, reason: "network", message: "no scripted answer" })
        }
        if (next.delay !== undefined) yield* Effect.sleep(next.delay)
        if ("fail" in next) {
          return yield* new LlmError({
            task: request.task,
            reason: next.fail,
            message: `scripted ${next.fail}`,
            ...(next.status !== undefined ? { status: next.status } : {})
          })
        }
        return next.answer
      })
  })
  return { script, layer: Layer.succeed(LlmClient, client) }
})
