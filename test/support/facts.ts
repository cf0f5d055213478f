/** A fact as `facts.json` stores it, for tests that plant a character's facts before the server starts. */
import { closeSync, openSync, readFileSync, statSync, utimesSync, writeSync } from "node:fs"
import { textHash } from "../../src/facts/Fact.js"

export const storedFact = (id: string, text: string) => ({
  id,
  text,
  importance: 6,
  entity: "master",
  source: "user_observation",
  hash: textHash(text),
  created_at: "2026-11-30T10:00:00.000000"
})

/**
 * Rewrites `file` in place with `edit` (same length) and sets its mtime back to `stamp`: the same inode, size and
 * mtime with another text, which only a derived copy checked by file stamps still holds. Answers the stamps
 * before and after, for the test to compare.
 */
export const rewriteKeepingStamp = (file: string, edit: (text: string) => string, stamp: Date) => {
  const stampOf = () => {
    const s = statSync(file, { bigint: true })
    return [s.ino, s.size, s.mtimeNs]
  }
  const before = stampOf()
  const fd = openSync(file, "r+")
  writeSync(fd, edit(readFileSync(file, "utf8")), 0, "utf8")
  closeSync(fd)
  utimesSync(file, stamp, stamp)
  return { before, after: stampOf() }
}
