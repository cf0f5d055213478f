/**
 * Cluster mode's options as the command line and the library take them (`--runner-address HOST:PORT`,
 * `--shard-db sqlite:PATH|postgres://…`), validated here, apart from the cluster modules so that reading
 * them loads none of those.
 */
import { Either, Schema } from "effect"

export interface ClusterOptions {
  /** This runner's address as the other runners reach it. */
  readonly runnerAddress: { readonly host: string; readonly port: number }
  /** `sqlite:PATH` (runners on one host) or `postgres://…` (several hosts). */
  readonly shardDb: string
  /** Shards per group; must be the same on every runner (default 300). */
  readonly shards?: number | undefined
}

export class ClusterSetupError extends Schema.TaggedError<ClusterSetupError>()("ClusterSetupError", {
  message: Schema.String
}) {}

const fail = (message: string) => Either.left(new ClusterSetupError({ message }))

/** `HOST:PORT` (IPv6 hosts in brackets) and a shard database URL into cluster options. */
export const parseClusterOptions = (raw: {
  readonly runnerAddress: string
  readonly shardDb: string
}): Either.Either<ClusterOptions, ClusterSetupError> => {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(raw.runnerAddress.trim())
  const port = Number(m?.[2])
  if (m?.[1] === undefined || !Number.isInteger(port) || port < 1 || port > 65535)
    return fail("the runner address must be HOST:PORT")
  if (!raw.shardDb.startsWith("sqlite:") && !/^postgres(ql)?:\/\//.test(raw.shardDb))
    return fail("the shard database must be sqlite:PATH or postgres://…")
  return Either.right({ runnerAddress: { host: m[1], port }, shardDb: raw.shardDb })
}
