/**
 * The embedding port: texts in, L2-normalised vectors out, with the id of the model that made them (the
 * cache key of neko-compat §4.17). `Disabled` is the layer for runs without vectors; recall then uses
 * BM25 alone.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"

export class EmbedError extends Schema.TaggedError<EmbedError>()("EmbedError", { message: Schema.String }) {}

export interface EmbedderService {
  /** The model id (e.g. `<profile>-<dim>d-fp32`); `None` while vectors are disabled. */
  readonly modelId: Effect.Effect<Option.Option<string>>
  /** Starts loading the model if nothing did yet and waits for the outcome: the model id, or `None` (disabled). */
  readonly ready: Effect.Effect<Option.Option<string>>
  /**
   * Whether the model serves the language of `text` (texts it does not serve are not embedded: recall uses
   * their words alone); absent, every text is served.
   */
  readonly serves?: (text: string) => boolean
  /** One vector per text, in order. Fails (and the embedder may disable itself) on any inference error. */
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array>, EmbedError>
}

export class Embedder extends Context.Tag("app/embed/Embedder")<Embedder, EmbedderService>() {
  static readonly Disabled = Layer.succeed(Embedder, {
    modelId: Effect.succeed(Option.none()),
    ready: Effect.succeed(Option.none()),
    embed: () => Effect.fail(new EmbedError({ message: "vectors disabled" }))
  })
}
