/**
 * An estimate of the memory a loaded character holds, from the sizes of the view files it decodes. The factors
 * were measured on the server binary: a character whose `facts.json` holds 10,000 synthetic facts (1.8 MB)
 * grows the process by 30–55 MB once queried (decoded rows, the recall index, stems), about 24 bytes per byte;
 * the other views are decoded without an index (about 6 per byte). The registry caps live actors by the sum.
 */
import { statSync } from "node:fs"
import * as path from "node:path"

/** What a loaded character costs before any view: its actor, mailbox, machines and empty stores. */
const BASE_BYTES = 64 * 1024

const FACTORS: ReadonlyArray<readonly [string, number]> = [
  ["facts.json", 24],
  ["recent.json", 6],
  ["reflections.json", 6],
  ["persona.json", 6]
]

const sizeOf = (file: string) => {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}

/** The estimated bytes a character at `dir` holds once loaded and queried. */
export const estimateBytes = (dir: string): number =>
  FACTORS.reduce((sum, [file, factor]) => sum + factor * sizeOf(path.join(dir, file)), BASE_BYTES)
