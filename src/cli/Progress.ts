/**
 * Progress of long commands on stderr: on a terminal a bar redrawn in place (`[#####-----]  3/10  label`),
 * cleared before an ordinary line is written; elsewhere (a pipe, CI) one plain line per step, so logs stay
 * readable.
 */
import { Effect } from "effect"

export interface Progress {
  /** An ordinary line (a result, a summary of the step just done). */
  readonly line: (text: string) => Effect.Effect<void>
  /** `done` of `total` steps, the next one named `label`. */
  readonly step: (done: number, total: number, label: string) => Effect.Effect<void>
}

interface Stream {
  readonly isTTY?: boolean | undefined
  readonly columns?: number | undefined
  readonly write: (text: string) => unknown
}

const WIDTH = 24

export const bar = (done: number, total: number): string => {
  const filled = total <= 0 ? WIDTH : Math.round((Math.min(done, total) / total) * WIDTH)
  return `[${"#".repeat(filled)}${"-".repeat(WIDTH - filled)}]`
}

export const makeProgress = (stream: Stream = process.stderr): Progress => {
  let drawn = false
  const clear = () => {
    if (drawn) stream.write("\r\x1b[2K")
    drawn = false
  }
  return {
    line: (text) =>
      Effect.sync(() => {
        clear()
        stream.write(`${text}\n`)
      }),
    step: (done, total, label) =>
      Effect.sync(() => {
        const text = `${bar(done, total)} ${String(done).padStart(String(total).length)}/${total}  ${label}`
        if (stream.isTTY === true) {
          clear()
          stream.write(text.slice(0, Math.max(20, (stream.columns ?? 80) - 1)))
          drawn = true
        } else stream.write(`${text}\n`)
      })
  }
}

/** The `progress` and `step` options of the evaluations, drawn by `p`. */
export const progressTo = (p: Progress) => ({ progress: p.line, step: p.step })
