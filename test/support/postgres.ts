/**
 * A throwaway PostgreSQL for cluster tests: `initdb` into a temp directory and `pg_ctl start` on a free
 * loopback port (as the `postgres` user when the tests run as root, which PostgreSQL refuses), trust auth,
 * fsync off; `stop` shuts it down immediately and removes the directory. Never assumes a running server.
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir, userInfo } from "node:os"
import * as path from "node:path"
import { freePort } from "./cluster.js"

const debianDirs = (): ReadonlyArray<string> =>
  existsSync("/usr/lib/postgresql")
    ? readdirSync("/usr/lib/postgresql")
        .sort()
        .reverse()
        .map((v) => path.join("/usr/lib/postgresql", v, "bin"))
    : []
const binDirs = ["/usr/local/bin", ...debianDirs(), "/usr/bin"]

const bin = (name: string) => {
  const dir = binDirs.find((d) => existsSync(path.join(d, name)))
  if (dir === undefined) throw new Error(`${name} not found (install Debian's postgresql)`)
  return path.join(dir, name)
}

export interface Postgres {
  readonly url: string
  readonly stop: () => void
}

export const startPostgres = async (): Promise<Postgres> => {
  const dir = mkdtempSync(path.join(tmpdir(), "kioku-pg-"))
  const asRoot = userInfo().uid === 0
  const run = (file: string, args: ReadonlyArray<string>) =>
    asRoot
      ? execFileSync("runuser", ["-u", "postgres", "--", file, ...args], { stdio: "pipe" })
      : execFileSync(file, [...args], { stdio: "pipe" })
  if (asRoot) chownSync(dir, Number(execFileSync("id", ["-u", "postgres"]).toString().trim()), -1)
  const data = path.join(dir, "data")
  run(bin("initdb"), ["-D", data, "-A", "trust", "-U", "kioku", "--no-sync", "-E", "UTF8"])
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`
  run(bin("pg_ctl"), ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"])
  return {
    url: `postgres://kioku@127.0.0.1:${port}/postgres`,
    stop: () => {
      try {
        run(bin("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    }
  }
}
