/**
 * What `kioku doctor` reports: a finding names a file (relative to the memory root, or `config/…`), what is
 * wrong and the one concrete fix. Problems make the exit code 1; notes are informational.
 */
import { Schema } from "effect"

export const Finding = Schema.Struct({ file: Schema.String, problem: Schema.String, fix: Schema.String })
export type Finding = typeof Finding.Type

export const CharacterSummary = Schema.Struct({
  name: Schema.String,
  files_checked: Schema.Number,
  events_past_sentinel: Schema.Number,
  outbox_pending: Schema.Number
})
export type CharacterSummary = typeof CharacterSummary.Type

export const DoctorReport = Schema.Struct({
  memory_root: Schema.String,
  config_dir: Schema.String,
  server: Schema.Struct({ running: Schema.Boolean, pid: Schema.NullOr(Schema.String) }),
  characters: Schema.Array(CharacterSummary),
  problems: Schema.Array(Finding),
  notes: Schema.Array(Finding)
})
export type DoctorReport = typeof DoctorReport.Type

export interface Collected {
  readonly problems: Array<Finding>
  readonly notes: Array<Finding>
}

export const collector = (): Collected & {
  readonly problem: (file: string, problem: string, fix: string) => void
  readonly note: (file: string, problem: string, fix: string) => void
} => {
  const problems: Array<Finding> = []
  const notes: Array<Finding> = []
  return {
    problems,
    notes,
    problem: (file, problem, fix) => problems.push({ file, problem, fix }),
    note: (file, problem, fix) => notes.push({ file, problem, fix })
  }
}

export type Collector = ReturnType<typeof collector>

export const errorText = (e: unknown): string => (e instanceof Error ? e.message : String(e)).slice(0, 200)

/** The innermost line of an error message (decode errors are trees, innermost last). */
export const innermost = (message: string): string =>
  (
    message
      .split("\n")
      .map((l) => l.replace(/^[\s│└├─]+/, "").trim())
      .filter((l) => l !== "")
      .pop() ?? message
  ).slice(0, 200)
