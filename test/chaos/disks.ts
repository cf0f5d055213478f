/**
 * Real disk faults for the chaos suite, no mocks. A full disk: a small tmpfs mounted inside a user and mount
 * namespace held open by a `sleep` process (`unshare -rm`, allowed to unprivileged users on most Linux
 * systems, always to root); the server joins that namespace through `nsenter` and the test reaches the same
 * files through `/proc/<holder>/root`. A permission fault: the test takes write permission away from a server
 * that file modes bind — as root, the server runs without the capabilities that override them (`setpriv`),
 * or as `nobody` where `setpriv` is missing.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process"
import { chmodSync, closeSync, ftruncateSync, fstatSync, openSync, rmSync, writeSync } from "node:fs"
import * as path from "node:path"
import { distBin, type Launch } from "../support/server.js"

export interface TinyDisk {
  /** The mount point as the test process reaches it. */
  readonly seen: string
  readonly launch: Launch
  /** Fills the disk up to `leaveBytes` of free space (rounded to pages) with a filler file. */
  readonly fill: (leaveBytes: number) => void
  readonly free: () => void
  readonly close: () => void
}

const PAGE = 4096

/** Mounts a tmpfs of `bytes` at `mountPoint` in a private namespace, or explains why it cannot. */
export const tinyDisk = async (mountPoint: string, bytes: number): Promise<TinyDisk | string> => {
  const script = 'mount -t tmpfs -o size="$1" tmpfs "$0" && echo "mounted $$" && exec sleep 100000'
  let holder: ChildProcess
  try {
    holder = spawn("unshare", ["-rm", "sh", "-c", script, mountPoint, String(bytes)], {
      stdio: ["ignore", "pipe", "pipe"]
    })
  } catch (e) {
    return `unshare unavailable: ${String(e)}`
  }
  const pid = await new Promise<number | string>((resolve) => {
    let out = ""
    holder.stdout?.on("data", (c: Buffer) => {
      out += c.toString()
      const m = /mounted (\d+)/.exec(out)
      if (m) resolve(Number(m[1]))
    })
    holder.stderr?.on("data", (c: Buffer) => (out += c.toString()))
    holder.once("error", (e) => resolve(`unshare failed: ${e.message}`))
    holder.once("exit", () => resolve(`no private tmpfs: ${out.trim()}`))
  })
  if (typeof pid === "string") return pid
  const seen = `/proc/${pid}/root${mountPoint}`
  const filler = path.join(seen, "filler")
  return {
    seen,
    launch: { wrap: ["nsenter", "-t", String(pid), "-U", "-m", "--preserve-credentials"] },
    fill: (leaveBytes) => {
      const fd = openSync(filler, "a")
      try {
        const block = Buffer.alloc(PAGE, 1)
        try {
          for (;;) writeSync(fd, block)
        } catch {
          // ENOSPC: the disk is full; give back what was asked for
        }
        const size = fstatSync(fd).size
        ftruncateSync(fd, Math.max(0, size - Math.ceil(leaveBytes / PAGE) * PAGE))
      } finally {
        closeSync(fd)
      }
    },
    free: () => rmSync(filler, { force: true }),
    close: () => {
      holder.kill("SIGKILL")
    }
  }
}

const NOBODY = 65534

/**
 * How to run the server so that file modes bind it, after handing it `root`; or why it cannot. As root:
 * without the capabilities that override file modes (`setpriv`), else as `nobody` (who must be able to read
 * the checkout).
 */
export const unprivileged = (root: string): Launch | string => {
  const uid = process.getuid?.() ?? NOBODY
  if (uid !== 0) return {}
  const dropped = "-dac_override,-dac_read_search"
  const wrap = ["setpriv", `--bounding-set=${dropped}`, `--inh-caps=${dropped}`, "--"]
  const [command = "setpriv", ...prefix] = wrap
  if (spawnSync(command, [...prefix, process.execPath, distBin, "--version"]).status === 0) return { wrap }
  const probe = spawnSync(process.execPath, [distBin, "--version"], { uid: NOBODY, gid: NOBODY, encoding: "utf8" })
  if (probe.status !== 0) return `user nobody cannot run ${distBin}: ${(probe.stderr ?? "").slice(0, 200)}`
  chmodSync(root, 0o755)
  spawnSync("chown", ["-R", `${NOBODY}:${NOBODY}`, root])
  return { uid: NOBODY, gid: NOBODY }
}
