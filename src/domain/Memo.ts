/**
 * Bounded memos for pure functions: the same timestamps and entry texts are parsed on every dialog and every
 * turn, the same machine states resolved and stepped, so their results are kept by a string key of the input,
 * and the whole map is dropped once it holds `kept` keys.
 */

/** A memo of `f` keyed by `keyOf(input)`: inputs with equal keys must have equal results. */
export const memoKeyed = <I, A>(keyOf: (input: I) => string, f: (input: I) => A, kept: number): ((input: I) => A) => {
  const known = new Map<string, { readonly value: A }>()
  return (input) => {
    const key = keyOf(input)
    const hit = known.get(key)
    if (hit !== undefined) return hit.value
    if (known.size >= kept) known.clear()
    const value = f(input)
    known.set(key, { value })
    return value
  }
}

/** A memo of a function of one string. */
export const memoString = <A>(f: (key: string) => A, kept: number): ((key: string) => A) =>
  memoKeyed((key: string) => key, f, kept)

/** `memoKeyed` kept per owner object (a tunables record, say), dropped with the owner. */
export const memoPer = <O extends object, I, A>(
  keyOf: (input: I) => string,
  f: (owner: O, input: I) => A,
  kept: number
): ((owner: O, input: I) => A) => {
  const byOwner = new WeakMap<O, (input: I) => A>()
  return (owner, input) => {
    let memo = byOwner.get(owner)
    if (memo === undefined) {
      memo = memoKeyed(keyOf, (i: I) => f(owner, i), kept)
      byOwner.set(owner, memo)
    }
    return memo(input)
  }
}

/**
 * A memo of a function of two strings, kept by the first and then by the second, so a call builds no key
 * string; at most `kept` results in all.
 */
export const memoTwoStrings = <A>(f: (outer: string, inner: string) => A, kept: number) => {
  const known = new Map<string, Map<string, { readonly value: A }>>()
  let held = 0
  return (outer: string, inner: string): A => {
    const hit = known.get(outer)?.get(inner)
    if (hit !== undefined) return hit.value
    if (held >= kept) {
      known.clear()
      held = 0
    }
    const value = f(outer, inner)
    const memo = known.get(outer) ?? new Map<string, { readonly value: A }>()
    known.set(outer, memo.set(inner, { value }))
    held++
    return value
  }
}
