/**
 * Simplified ↔ Traditional Chinese conversion with opencc-js (OpenCC's tables), loaded on first use (about
 * 0.2 s) so start-up does not pay for it. Used to derive Traditional prompts and, later, to fold
 * Traditional text for search.
 */
import { Context, Effect, Layer } from "effect"

export interface Script {
  readonly toTraditional: (text: string) => Effect.Effect<string>
  readonly toSimplified: (text: string) => Effect.Effect<string>
}

type Convert = (text: string) => string

export class ChineseScript extends Context.Tag("app/llm/ChineseScript")<ChineseScript, Script>() {
  static readonly layer = Layer.effect(
    ChineseScript,
    Effect.gen(function* () {
      const load = (from: "cn" | "tw", to: "cn" | "tw") =>
        Effect.cached(
          Effect.tryPromise(() => import("opencc-js")).pipe(
            Effect.map((m): Convert => m.Converter({ from, to })),
            Effect.tapError(() => Effect.logWarning("opencc-js unavailable; Chinese text left as is")),
            Effect.orElseSucceed((): Convert => (text) => text)
          )
        )
      const toTw = yield* load("cn", "tw")
      const toCn = yield* load("tw", "cn")
      return {
        toTraditional: (text) => Effect.map(toTw, (convert) => convert(text)),
        toSimplified: (text) => Effect.map(toCn, (convert) => convert(text))
      }
    })
  )
}
