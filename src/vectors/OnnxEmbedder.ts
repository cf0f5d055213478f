/**
 * The `Embedder` on onnxruntime-node (CPU). Nothing loads at start: the first use (or the warm-up the
 * maintenance layer starts after recovery) loads the configured model directory, or the built-in model, building it
 * first in a child process when its cache directory is empty; until then `modelId` is `None` and `embed`
 * fails, so recall falls back to BM25. States: idle → loading (building) → ready | disabled. Disabled is
 * sticky for the life of the process: a failed build, an unreadable model, or any inference error logs
 * once and turns vectors off. Runs are serialised and split into batches of `embedding_batch_size`; only
 * the texts the model's profile serves are run, the others get no vector. The built-in model is the one
 * `vectors_model_profile_id` names (DefaultModel.ts); a directory holding an older build of it is rebuilt.
 */
import { Clock, Deferred, Effect, Layer, Option, Ref, type Scope } from "effect"
import { totalmem } from "node:os"
import * as path from "node:path"
import { KiokuConfig, type KiokuSettings } from "../Config.js"
import { buildCommandFor, runBuild, type BuildCommand } from "./BuildProcess.js"
import { builtinFor, defaultModelDir } from "./DefaultModel.js"
import { EmbedError, Embedder, type EmbedderService } from "./Embedder.js"
import { isCurrent, readModelDir, servesText, type ModelProfile } from "./ModelProfile.js"
import * as OnnxSession from "./OnnxSession.js"

export interface OnnxEmbedderOptions {
  /** A user-supplied model directory; when `None`, the built-in model in `defaultDir`, built on first use. */
  readonly modelDir: Option.Option<string>
  readonly defaultDir: string
  /** The profile the built-in model in `defaultDir` must have (an older build is rebuilt). */
  readonly defaultProfile: ModelProfile
  readonly buildCommand: Effect.Effect<BuildCommand, EmbedError>
  readonly batchSize: number
  readonly maxLength: number
  /** `vectors_embedding_dim`: "auto" or a Matryoshka dimension. */
  readonly requestedDim: string
}

export const optionsFrom = (settings: KiokuSettings): OnnxEmbedderOptions => {
  const t = settings.tunables
  const builtin = builtinFor(t.vectors_model_profile_id)
  return {
    modelDir: t.embedding_model_dir === "" ? Option.none() : Option.some(path.resolve(t.embedding_model_dir)),
    defaultDir: defaultModelDir(settings, builtin),
    defaultProfile: builtin.profile,
    buildCommand: buildCommandFor(builtin.profile.id),
    batchSize: Math.max(1, Math.floor(t.embedding_batch_size)),
    maxLength: Math.max(1, Math.floor(t.embedding_max_length_tokens)),
    requestedDim: t.vectors_embedding_dim
  }
}

export type EmbedderStatus = "idle" | "building" | "loading" | "ready" | "disabled"

export interface OnnxEmbedder extends EmbedderService {
  readonly status: Effect.Effect<EmbedderStatus>
}

type State =
  | { readonly _tag: "Idle" }
  | { readonly _tag: "Loading"; readonly building: boolean }
  | { readonly _tag: "Ready"; readonly model: OnnxSession.LoadedModel }
  | { readonly _tag: "Disabled"; readonly reason: string }

const chunk = <A>(items: ReadonlyArray<A>, size: number): ReadonlyArray<ReadonlyArray<A>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

export const make = (options: OnnxEmbedderOptions): Effect.Effect<OnnxEmbedder, never, Scope.Scope> =>
  Effect.gen(function* () {
    const scope = yield* Effect.scope
    const state = yield* Ref.make<State>({ _tag: "Idle" })
    const settled = yield* Deferred.make<void>()
    const runs = yield* Effect.makeSemaphore(1)

    const disable = (reason: string) =>
      Ref.modify(state, (s): [State | undefined, State] =>
        s._tag === "Disabled" ? [undefined, s] : [s, { _tag: "Disabled", reason }]
      ).pipe(
        Effect.flatMap((previous) =>
          previous === undefined
            ? Effect.void
            : Effect.logWarning("vectors disabled; recall uses BM25 alone").pipe(
                Effect.annotateLogs({ reason }),
                Effect.zipRight(previous._tag === "Ready" ? previous.model.release : Effect.void)
              )
        )
      )

    const buildDefault = Effect.gen(function* () {
      yield* Ref.set(state, { _tag: "Loading", building: true })
      yield* Effect.logInfo("building the default embedding model").pipe(
        Effect.annotateLogs({ dir: options.defaultDir })
      )
      const started = yield* Clock.currentTimeMillis
      yield* runBuild(yield* options.buildCommand, options.defaultDir)
      const seconds = ((yield* Clock.currentTimeMillis) - started) / 1000
      yield* Effect.logInfo("default embedding model built").pipe(Effect.annotateLogs({ seconds }))
      yield* Ref.set(state, { _tag: "Loading", building: false })
      return options.defaultDir
    })

    const loader = Effect.gen(function* () {
      const dir = Option.isSome(options.modelDir)
        ? options.modelDir.value
        : isCurrent(options.defaultDir, options.defaultProfile)
          ? options.defaultDir
          : yield* buildDefault
      const model = yield* readModelDir(dir).pipe(Effect.flatMap((d) => OnnxSession.load(d, options)))
      yield* model.run(["warm up"]).pipe(Effect.tapError(() => model.release))
      yield* Ref.set(state, { _tag: "Ready", model })
      yield* Effect.logInfo("embedding model ready").pipe(Effect.annotateLogs({ modelId: model.modelId, dir }))
    }).pipe(
      Effect.catchAll((e) => disable(e.message)),
      Effect.ensuring(Deferred.succeed(settled, undefined))
    )

    const needsBuild = () => Option.isNone(options.modelDir) && !isCurrent(options.defaultDir, options.defaultProfile)
    const claim = Effect.suspend(() => {
      const building = needsBuild()
      return Ref.modify(state, (s): [boolean, State] =>
        s._tag === "Idle" ? [true, { _tag: "Loading", building }] : [false, s]
      )
    })
    const start = Ref.get(state).pipe(
      Effect.flatMap((s) => (s._tag === "Idle" ? claim : Effect.succeed(false))),
      Effect.flatMap((first) => (first ? Effect.asVoid(Effect.forkIn(loader, scope)) : Effect.void))
    )

    yield* Effect.addFinalizer(() =>
      Ref.get(state).pipe(Effect.flatMap((s) => (s._tag === "Ready" ? s.model.release : Effect.void)))
    )

    const current = Ref.get(state).pipe(Effect.map((s) => (s._tag === "Ready" ? Option.some(s.model) : Option.none())))
    const modelId = start.pipe(Effect.zipRight(current), Effect.map(Option.map((m) => m.modelId)))
    const serves = start.pipe(
      Effect.zipRight(current),
      Effect.map(Option.match({ onNone: () => (_text: string) => false, onSome: (m) => servesText(m.profile) }))
    )

    const notReady = (s: State) =>
      new EmbedError({
        message:
          s._tag === "Disabled"
            ? `vectors disabled: ${s.reason}`
            : s._tag === "Loading" && s.building
              ? "vectors not ready: the default model is being built"
              : "vectors not ready"
      })

    const embed = (texts: ReadonlyArray<string>) =>
      Effect.gen(function* () {
        yield* start
        const before = yield* Ref.get(state)
        if (before._tag === "Loading" && !before.building) yield* Deferred.await(settled)
        return yield* runs.withPermits(1)(
          Effect.gen(function* () {
            const s = yield* Ref.get(state)
            if (s._tag !== "Ready") return yield* notReady(s)
            const served = servesText(s.model.profile)
            const picked = texts.flatMap((t, i) => (served(t) ? [i] : []))
            const batches = yield* Effect.forEach(
              chunk(
                picked.map((i) => texts[i] ?? ""),
                options.batchSize
              ),
              s.model.run
            ).pipe(Effect.tapError((e) => disable(e.message)))
            const vectors = batches.flat()
            const out = new Array<Float32Array | undefined>(texts.length).fill(undefined)
            picked.forEach((i, k) => (out[i] = vectors[k]))
            return out
          })
        )
      })

    return {
      modelId,
      serves,
      embed,
      ready: start.pipe(Effect.zipRight(Deferred.await(settled)), Effect.zipRight(modelId)),
      status: Ref.get(state).pipe(
        Effect.map((s): EmbedderStatus => {
          switch (s._tag) {
            case "Idle":
              return "idle"
            case "Loading":
              return s.building ? "building" : "loading"
            case "Ready":
              return "ready"
            case "Disabled":
              return "disabled"
          }
        })
      )
    }
  })

/** The ONNX embedder configured by `KiokuConfig`. */
export const layer: Layer.Layer<Embedder, never, KiokuConfig> = Layer.scoped(
  Embedder,
  Effect.flatMap(KiokuConfig, (settings) => make(optionsFrom(settings)))
)

/**
 * The embedder for these settings: `Embedder.Disabled` when `vectors_enabled` is off or the machine has less
 * than `vectors_min_ram_gb` of memory (as N.E.K.O. does), else the ONNX embedder.
 */
export const fromSettings = (settings: KiokuSettings): Layer.Layer<Embedder, never, KiokuConfig> =>
  settings.tunables.vectors_enabled && totalmem() >= settings.tunables.vectors_min_ram_gb * 1024 ** 3
    ? layer
    : Embedder.Disabled
