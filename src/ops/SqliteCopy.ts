/**
 * Read-only access to a SQLite file for the operator commands: the database (with its `-wal`) is copied to
 * a temp directory and opened there, because opening the file itself, even read-only, creates `-wal` and
 * `-shm` files beside it. With a server writing, the copy can be torn: stop it for a guaranteed snapshot.
 */
import Database from "better-sqlite3"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export const withCopy = <A>(file: string, f: (copy: string) => A): A => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "kioku-sqlite-"))
  try {
    const copy = path.join(tmp, path.basename(file))
    fs.copyFileSync(file, copy)
    if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`)
    return f(copy)
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true })
  }
}

/** Runs `f` on a connection to a copy of `file`. */
export const withDatabase = <A>(file: string, f: (db: Database.Database) => A): A =>
  withCopy(file, (copy) => {
    const db = new Database(copy, { fileMustExist: true })
    try {
      return f(db)
    } finally {
      db.close()
    }
  })
