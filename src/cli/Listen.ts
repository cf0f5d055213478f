/**
 * The listening options shared by `kioku serve` and `kioku mcp --http`: a port in 0..65535, `--host`
 * (else `KIOKU_HOST`, else 127.0.0.1) and `--auth-token` (else `KIOKU_AUTH_TOKEN`); binding anything but
 * loopback requires a token, because without one only the Host/Origin guard stands between the memory and
 * the network.
 */
import { Effect } from "effect"
import { envOr, UsageError } from "./Args.js"

const loopback = new Set(["127.0.0.1", "localhost", "::1"])

/** `--auth-token`, else `KIOKU_AUTH_TOKEN`; none when empty. */
export const authTokenOf = (flag: string | undefined) =>
  Effect.map(envOr(flag, "KIOKU_AUTH_TOKEN", ""), (t) => (t === "" ? undefined : t))

export const listenOptions = (raw: {
  /** The port's flag, for the error message. */
  readonly flag: string
  readonly port: string
  readonly host: string | undefined
  readonly authToken: string | undefined
}) =>
  Effect.gen(function* () {
    const port = Number(raw.port)
    if (raw.port.trim() === "" || !Number.isInteger(port) || port < 0 || port > 65535)
      return yield* new UsageError({ message: `${raw.flag} must be 0..65535` })
    const host = yield* envOr(raw.host, "KIOKU_HOST", "127.0.0.1")
    const token = yield* authTokenOf(raw.authToken)
    if (!loopback.has(host) && token === undefined)
      return yield* new UsageError({ message: `binding ${host} needs --auth-token (or KIOKU_AUTH_TOKEN)` })
    return { port, host, token }
  })
