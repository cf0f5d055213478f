/**
 * Copying a record with some fields replaced, without object spread. On Node 20 (V8 11.3) an object literal
 * that starts with a spread (`{ ...a, k: v }`, also `{ ...a }`) gets a hidden class of its own once its call
 * site is warm: every copy made there is a new shape, about ten times slower to build, several hundred bytes
 * more to keep, and it turns every later property read of such objects megamorphic. `Object.assign` onto a
 * fresh literal shares shapes. Use `withFields` where copies are made per turn, per item or kept in memory.
 */

/** The type of `{ ...A, ...B }` (a record type keeps its index signature). */
export type Merged<A, B> = string extends keyof A ? A & B : Omit<A, keyof B> & B

/** `{ ...base, ...fields }` with shared shapes: base's own enumerable fields, then `fields` over them. */
export const withFields = <A extends object, B extends object>(base: A, fields: B): Merged<A, B> =>
  // An own `__proto__` key (from parsed JSON) would be set as the prototype by `Object.assign`: spread keeps it a field.
  (Object.hasOwn(base, "__proto__") || Object.hasOwn(fields, "__proto__")
    ? { ...base, ...fields }
    : Object.assign({}, base, fields)) as Merged<A, B>
