/** Helpers for the operator-command tests: run `dist/kioku.mjs` to completion, and fingerprint a tree. */
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { readdirSync, readFileSync, statSync } from "node:fs"
import * as path from "node:path"
import { distBin } from "../support/server.js"

export const kioku = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) => {
  const r = spawnSync(process.execPath, [distBin, ...args], {
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, KIOKU_VECTORS_ENABLED: "false", ...env }
  })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

/**
 * Every file under `dir` (relative path → sha256 of its content and mtime), to show a command wrote nothing;
 * the memory-root lock files, which a command that takes the lock rewrites, are left out.
 */
export const fingerprint = (dir: string): Record<string, string> => {
  const out: Record<string, string> = {}
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name)
      if (e.isDirectory()) walk(full)
      else if (!e.name.startsWith(".kioku.lock")) {
        const hash = createHash("sha256").update(readFileSync(full)).digest("hex")
        out[path.relative(dir, full)] = `${hash}@${statSync(full).mtimeMs}`
      }
    }
  }
  walk(dir)
  return out
}
