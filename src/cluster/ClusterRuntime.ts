/**
 * Cluster mode's infrastructure: the runner (an `@effect/cluster` socket runner at `--runner-address`), its
 * shard and message storage in SQL (`--shard-db`: `sqlite:PATH` for runners on one host, `postgres://…`
 * through `@effect/sql-pg` for several hosts), and the `Placement` that ties kioku's actors to shard
 * ownership. Every sharding setting is given here, none is read from the environment.
 */
import { EntityId, RunnerAddress, RunnerHealth, Runners, ShardingConfig, SocketRunner } from "@effect/cluster"
import { Sharding } from "@effect/cluster/Sharding"
import * as SqlMessageStorage from "@effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "@effect/cluster/SqlRunnerStorage"
import { NodeClusterSocket } from "@effect/platform-node"
import { RpcSerialization } from "@effect/rpc"
import { SqliteClient } from "@effect/sql-sqlite-node"
import type { SqlClient } from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type { ConfigError } from "effect/ConfigError"
import { Duration, Effect, Layer, Option, Redacted } from "effect"
import { ActorDefect } from "../runtime/Actor.js"
import { Placement } from "../runtime/Placement.js"
import * as CharacterLock from "./CharacterLock.js"
import { ClusterSetupError, type ClusterOptions } from "./Options.js"
import * as RootLock from "../store/RootLock.js"
import { CharacterHandlers } from "./CharacterHandlers.js"
import { ClusterMemory } from "./ClusterMemory.js"
import { Character, deliveryAsDefect } from "./CharacterEntity.js"

/** The shard database's client; PostgreSQL's driver is loaded only when a runner uses it. */
const sqlLayer = (url: string): Layer.Layer<SqlClient, ClusterSetupError> => {
  const unreachable = (e: SqlError | ConfigError) => new ClusterSetupError({ message: `shard database: ${e.message}` })
  if (url.startsWith("sqlite:"))
    return Layer.mapError(SqliteClient.layer({ filename: url.slice("sqlite:".length) }), unreachable)
  if (/^postgres(ql)?:\/\//.test(url))
    return Layer.unwrapEffect(
      Effect.map(
        Effect.promise(() => import("@effect/sql-pg")),
        ({ PgClient }) =>
          Layer.mapError(PgClient.layer({ url: Redacted.make(url), applicationName: "kioku" }), unreachable)
      )
    )
  return Layer.fail(new ClusterSetupError({ message: `unsupported --shard-db ${url.split(":")[0] ?? ""}` }))
}

const runnerId = (o: ClusterOptions) => `${o.runnerAddress.host}:${o.runnerAddress.port}`

const shardingLayer = (o: ClusterOptions) =>
  SocketRunner.layer.pipe(
    Layer.provide([NodeClusterSocket.layerSocketServer, NodeClusterSocket.layerClientProtocol]),
    Layer.provide(
      RunnerHealth.layerPing.pipe(Layer.provide(Runners.layerRpc), Layer.provide(NodeClusterSocket.layerClientProtocol))
    ),
    Layer.provideMerge(Layer.orDie(SqlMessageStorage.layer)),
    Layer.provide(Layer.orDie(SqlRunnerStorage.layer)),
    Layer.provide(
      ShardingConfig.layer({
        runnerAddress: Option.some(RunnerAddress.make(o.runnerAddress.host, o.runnerAddress.port)),
        runnerListenAddress: Option.none(),
        shardsPerGroup: o.shards ?? 300,
        shardLockRefreshInterval: Duration.seconds(3),
        shardLockExpiration: Duration.seconds(12),
        refreshAssignmentsInterval: Duration.seconds(2),
        runnerHealthCheckInterval: Duration.seconds(5),
        entityTerminationTimeout: Duration.seconds(15),
        // A message to an entity on this runner skips the encode/decode round trip a remote one needs.
        simulateRemoteSerialization: false
      })
    ),
    Layer.provide(RpcSerialization.layerMsgPack)
  )

const placementLayer = (o: ClusterOptions, dataDir: string) =>
  Layer.effect(
    Placement,
    Effect.gen(function* () {
      const sharding = yield* Sharding
      const client = yield* Character.client
      return {
        owns: (name) => sharding.hasShardId(sharding.getShardId(EntityId.make(name), "default")),
        claim: CharacterLock.claim(dataDir, runnerId(o)),
        sharedLock: Option.some((key: string) => Effect.asVoid(CharacterLock.sharedFileLock(dataDir, key))),
        maintain: Option.some((name, loop) =>
          client(name)
            .Maintain({ loop })
            .pipe(
              deliveryAsDefect(name),
              Effect.catchTag("InvalidCharacterName", (e) =>
                Effect.fail(new ActorDefect({ actor: name, message: e.message }))
              )
            )
        )
      }
    })
  )

/** Sharding, its SQL storage and the cluster's `Placement`, for `appLayer`. */
export const clusterLayer = (o: ClusterOptions, dataDir: string) =>
  placementLayer(o, dataDir).pipe(Layer.provideMerge(shardingLayer(o)), Layer.provide(sqlLayer(o.shardDb)))

/** What `appLayer` adds in cluster mode: the routing memory service with the entity, over the runner. */
export const clusterService = Layer.merge(ClusterMemory, CharacterHandlers)

export const clusterInfra = (o: ClusterOptions, dataDir: string) =>
  clusterLayer(o, dataDir).pipe(Layer.provideMerge(Layer.scopedDiscard(RootLock.share(dataDir))))
