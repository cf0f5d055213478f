/**
 * `--runner-address HOST:PORT` (IPv6 hosts in brackets) parsed into a runner address, kept apart from the
 * cluster modules so the command line does not load them.
 */
import { Option } from "effect"

export interface Address {
  readonly host: string
  readonly port: number
}

export const parseRunnerAddress = (raw: string): Option.Option<Address> => {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(raw.trim())
  const port = Number(m?.[2])
  return m?.[1] === undefined || !Number.isInteger(port) || port < 1 || port > 65535
    ? Option.none()
    : Option.some({ host: m[1], port })
}
