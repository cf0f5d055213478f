/**
 * A bounded memo for pure functions of one string: the same timestamps and entry texts are parsed on every
 * dialog and every turn, so their results are kept, and the whole map is dropped once it holds `kept` keys.
 */
export const memoString = <A>(f: (key: string) => A, kept: number): ((key: string) => A) => {
  const known = new Map<string, { readonly value: A }>()
  return (key) => {
    const hit = known.get(key)
    if (hit !== undefined) return hit.value
    if (known.size >= kept) known.clear()
    const value = f(key)
    known.set(key, { value })
    return value
  }
}

/** `memoString` kept per owner object (a tunables record, say), dropped with the owner. */
export const memoPer = <O extends object, A>(
  f: (owner: O, key: string) => A,
  kept: number
): ((owner: O, key: string) => A) => {
  const byOwner = new WeakMap<O, (key: string) => A>()
  return (owner, key) => {
    let memo = byOwner.get(owner)
    if (memo === undefined) {
      memo = memoString((k) => f(owner, k), kept)
      byOwner.set(owner, memo)
    }
    return memo(key)
  }
}
