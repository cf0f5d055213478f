/**
 * Entries ordered by event start, kept sorted as they come and go, so a time window is found without a
 * scan of the corpus: an entry [s, e] meets the half-open window [from, to) when s < to and e ≥ from, and
 * since no entry spans more than `maxSpan`, only starts in [from − maxSpan, to) need looking at. `maxSpan`
 * only grows (a removal leaves it as it was), which keeps every search correct and at worst wider.
 */

export interface Timeline {
  readonly add: (id: string, start: number, end: number) => void
  readonly remove: (id: string) => void
  /** Visits the entries meeting [from, to), latest start first, until `f` returns false. */
  readonly overlapping: (from: number, to: number, f: (id: string, start: number, end: number) => boolean) => void
  /** Visits the entries starting at or after `at`, earliest first, until `f` returns false. */
  readonly startingFrom: (at: number, f: (id: string, start: number) => boolean) => void
  /**
   * Visits the entries that end before `at`, by decreasing start, until `f` returns false; `f` also gets
   * the least distance any later-visited entry can have (`at − (start + maxSpan)`), to stop early.
   */
  readonly endingBefore: (at: number, f: (id: string, end: number, bound: number) => boolean) => void
}

export const make = (): Timeline => {
  let starts: Array<number> = []
  let ends: Array<number> = []
  let ids: Array<string> = []
  const startOf = new Map<string, number>()
  /** Added but not yet in the sorted arrays; sorted in by the next search. */
  const pending = new Map<string, readonly [number, number]>()
  let maxSpan = 0

  /** First index whose start is ≥ `value` (or > with `strict`). */
  const bound = (value: number, strict: boolean) => {
    let lo = 0
    let hi = starts.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const s = starts[mid] ?? 0
      if (s < value || (strict && s === value)) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  const insert = (id: string, start: number, end: number) => {
    const at = bound(start, true)
    starts.splice(at, 0, start)
    ends.splice(at, 0, end)
    ids.splice(at, 0, id)
  }

  /** Sorts pending entries in: one by one when few, by a full sort when many (a bulk load). */
  const settle = () => {
    if (pending.size === 0) return
    if (pending.size <= 32) for (const [id, [s, e]] of pending) insert(id, s, e)
    else {
      const all = ids.map((id, i) => [id, starts[i] ?? 0, ends[i] ?? 0] as const)
      for (const [id, [s, e]] of pending) all.push([id, s, e])
      all.sort((a, b) => a[1] - b[1])
      ids = all.map((x) => x[0])
      starts = all.map((x) => x[1])
      ends = all.map((x) => x[2])
    }
    pending.clear()
  }

  const remove = (id: string) => {
    const start = startOf.get(id)
    if (start === undefined) return
    startOf.delete(id)
    if (pending.delete(id)) return
    for (let i = bound(start, false); i < starts.length && starts[i] === start; i++) {
      if (ids[i] !== id) continue
      starts.splice(i, 1)
      ends.splice(i, 1)
      ids.splice(i, 1)
      return
    }
  }

  return {
    add: (id, start, end) => {
      remove(id)
      pending.set(id, [start, end])
      startOf.set(id, start)
      maxSpan = Math.max(maxSpan, end - start)
    },
    remove,
    overlapping: (from, to, f) => {
      settle()
      for (let i = bound(to, false) - 1; i >= 0; i--) {
        const s = starts[i] ?? 0
        if (s < from - maxSpan) return
        const e = ends[i] ?? 0
        if (e >= from && !f(ids[i] ?? "", s, e)) return
      }
    },
    startingFrom: (at, f) => {
      settle()
      for (let i = bound(at, false); i < starts.length; i++) if (!f(ids[i] ?? "", starts[i] ?? 0)) return
    },
    endingBefore: (at, f) => {
      settle()
      for (let i = bound(at, false) - 1; i >= 0; i--) {
        const e = ends[i] ?? 0
        if (e < at && !f(ids[i] ?? "", e, at - ((starts[i] ?? 0) + maxSpan))) return
      }
    }
  }
}
