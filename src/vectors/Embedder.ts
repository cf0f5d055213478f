/**
 * The embedding port: texts in, L2-normalised vectors out, with the id of the model that made them (the
 * cache key of neko-compat §4.17). A model serves some languages only (its profile says which; the
 * built-in models serve English): a text it does not serve gets no vector (`undefined` in its place), never a
 * vector that would sit close to every other text the model cannot read, and recall treats it with BM25
 * alone. `Disabled` is the layer for runs without vectors; recall then uses BM25 alone.
 */
import { Context, Effect, Layer, Option, Schema } from "effect"

export class EmbedError extends Schema.TaggedError<EmbedError>()("EmbedError", { message: Schema.String }) {}

export interface EmbedderService {
  /** The model id (e.g. `<profile>-<dim>d-fp32`); `None` while vectors are disabled or the model is not loaded. */
  readonly modelId: Effect.Effect<Option.Option<string>>
  /** Starts loading the model if nothing did yet and waits for the outcome: the model id, or `None` (disabled). */
  readonly ready: Effect.Effect<Option.Option<string>>
  /**
   * The current model's test of whether it embeds a text (its language is one the model serves, and it is not
   * blank); false for every text while `modelId` is `None`. Pure and cheap: filter with it before embedding.
   */
  readonly serves: Effect.Effect<(text: string) => boolean>
  /**
   * One entry per text, in order: its vector, or `undefined` for a text the model does not serve. Fails (and
   * the embedder may disable itself) on any inference error.
   */
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<ReadonlyArray<Float32Array | undefined>, EmbedError>
}

const servesNothing = (_text: string) => false

export class Embedder extends Context.Tag("app/embed/Embedder")<Embedder, EmbedderService>() {
  static readonly Disabled = Layer.succeed(Embedder, {
    modelId: Effect.succeed(Option.none()),
    serves: Effect.succeed(servesNothing),
    ready: Effect.succeed(Option.none()),
    embed: () => Effect.fail(new EmbedError({ message: "vectors disabled" }))
  })
}
