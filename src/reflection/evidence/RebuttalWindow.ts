/**
 * The rebuttal loop's cursor logic (neko-compat §4.6), pure. A tick reads the user messages after
 * `rebuttalStart` (the persisted `rebuttal_checked_until`, or now − 1 h when it is missing or in the
 * future; the SQL `LIMIT 200` is the caller's), then `rebuttalWindow` takes the first `batch` of them,
 * extended over rows sharing the last taken timestamp so a strict `ts > cursor` read never splits a tie.
 * The next cursor is the last taken timestamp (so the rest drains on later ticks), or `now` when there was
 * nothing to take. A window that keeps failing is skipped by saving `nextCursor` (policy `rebuttalRetry`).
 */

export const REBUTTAL_LOOKBACK_MS = 3_600_000
export const REBUTTAL_BATCH = 20

export interface RebuttalWindowInput<R extends { readonly ts: number }> {
  readonly cursor: number | undefined
  readonly now: number
  readonly rows: ReadonlyArray<R>
  readonly lookbackMs?: number
  readonly batch?: number
}

export interface RebuttalWindow<R> {
  readonly from: number
  readonly take: ReadonlyArray<R>
  readonly nextCursor: number
}

/** Where a tick starts reading: the cursor, or `now − lookback` when it is missing or in the future. */
export const rebuttalStart = (cursor: number | undefined, now: number, lookbackMs = REBUTTAL_LOOKBACK_MS): number =>
  cursor === undefined || !Number.isFinite(cursor) || cursor > now ? now - lookbackMs : cursor

/** The rows to check this tick and the cursor to save once they are handled (rows in ts order). */
export const rebuttalWindow = <R extends { readonly ts: number }>(input: RebuttalWindowInput<R>): RebuttalWindow<R> => {
  const from = rebuttalStart(input.cursor, input.now, input.lookbackMs)
  const size = input.batch ?? REBUTTAL_BATCH
  const batch = Number.isFinite(size) ? Math.max(1, Math.floor(size)) : REBUTTAL_BATCH
  const eligible = input.rows.filter((r) => r.ts > from)
  const last = eligible[Math.min(batch, eligible.length) - 1]
  if (last === undefined) return { from, take: [], nextCursor: input.now }
  const cut = eligible.findIndex((r, i) => i >= batch && r.ts !== last.ts)
  return { from, take: eligible.slice(0, cut === -1 ? eligible.length : cut), nextCursor: last.ts }
}
