/**
 * Every timing policy of background work in one place (neko-compat §4.13 and kioku's own), as Schedules
 * or delays derived from the tunables.
 */
import { Schedule } from "effect"

/** Delay before the n-th (1-based) backup retry of a failed recent compression: 30 s, 60 s, 120 s, 240 s. */
export const backupDelay = (attempt: number): number => 30_000 * 2 ** Math.max(0, attempt - 1)

/** Retries of a chat-completions call on network errors, 429 and 5xx: after 1 s and 2 s. */
export const llmRetry = Schedule.exponential("1 second", 2).pipe(Schedule.intersect(Schedule.recurs(2)))
