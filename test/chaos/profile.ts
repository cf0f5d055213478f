/**
 * The chaos suite's two profiles and its seeded randomness. `KIOKU_CHAOS=long` (set by `npm run chaos`)
 * selects the long profile; anything else runs the short one that `npm test` includes. `KIOKU_CHAOS_SEED`
 * replays a run: every random choice of the suite comes from one PRNG seeded with it, and a failing
 * assertion names the seed.
 */
export const long = process.env["KIOKU_CHAOS"] === "long"

export const seed = Number(process.env["KIOKU_CHAOS_SEED"] ?? "20261130")

export const profile = long
  ? { name: "long", kills: 20, characters: 20, hostile: 5000, loadMillis: [2000, 8000] as const, timeout: 1_800_000 }
  : { name: "short", kills: 3, characters: 20, hostile: 1000, loadMillis: [2000, 5000] as const, timeout: 240_000 }

/** mulberry32: a small, fast 32-bit PRNG, good enough to pick test inputs reproducibly. */
export const prng = (start: number) => {
  let a = start >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1))
  const pick = <A>(xs: ReadonlyArray<A>): A => {
    const x = xs[int(0, xs.length - 1)]
    if (x === undefined) throw new Error("pick from an empty list")
    return x
  }
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => int(0, 255)))
  return { next, int, pick, bytes }
}
export type Prng = ReturnType<typeof prng>

/** Polls `check` until it returns true or the deadline passes (for real child processes, not unit tests). */
export const until = async (what: string, check: () => boolean | Promise<boolean>, millis = 30_000) => {
  const deadline = Date.now() + millis
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
