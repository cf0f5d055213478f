/**
 * The memory browser's split of one character's rows by subject (domain/Subject.ts): the private part holds
 * only unstamped rows and no `@subject/…` section, and each group-chat subject gets exactly its own rows —
 * stamped with its kind, id and scope — plus the entries of its persona section stamped with no subject, which
 * its forget removes too. Rows with malformed stamps belong to no part. Subjects come from the rows and from
 * `scoped_subjects.json`, ordered group chats, participants, group members, then by id and scope. Pure.
 */
import { Either } from "effect"
import {
  isLegacyPrivate,
  makeSubject,
  personaSectionKey,
  SCOPED_PERSONA_PREFIX,
  stampedWith,
  SUBJECT_KINDS,
  subjectMarker,
  subjectOfRow,
  type MemorySubject
} from "../domain/Subject.js"
import { META } from "../persona/Persona.js"

type Row = { readonly [key: string]: unknown }

export interface Memory<F extends Row, R extends Row, E extends Row> {
  readonly facts: ReadonlyArray<F>
  readonly archivedFacts: ReadonlyArray<F>
  readonly reflections: ReadonlyArray<R>
  readonly persona: ReadonlyArray<{ readonly section: string; readonly entries: ReadonlyArray<E> }>
}

/** Private memory: unstamped rows, and every section but the metadata and the subjects' own sections. */
export const privatePart = <F extends Row, R extends Row, E extends Row>(m: Memory<F, R, E>): Memory<F, R, E> => ({
  facts: m.facts.filter(isLegacyPrivate),
  archivedFacts: m.archivedFacts.filter(isLegacyPrivate),
  reflections: m.reflections.filter(isLegacyPrivate),
  persona: m.persona
    .filter((s) => s.section !== META && !s.section.startsWith(SCOPED_PERSONA_PREFIX))
    .map((s) => ({ section: s.section, entries: s.entries.filter(isLegacyPrivate) }))
})

/** The subject an `@subject/<kind>:<id>` section is named after, with its default scope. */
const sectionSubject = (section: string): MemorySubject | undefined => {
  if (!section.startsWith(SCOPED_PERSONA_PREFIX)) return undefined
  const key = section.slice(SCOPED_PERSONA_PREFIX.length)
  const at = key.indexOf(":")
  if (at <= 0) return undefined
  return Either.getOrUndefined(makeSubject(key.slice(0, at), key.slice(at + 1)))
}

const order = (a: MemorySubject, b: MemorySubject) =>
  SUBJECT_KINDS.indexOf(a.kind) - SUBJECT_KINDS.indexOf(b.kind) ||
  (a.subjectId < b.subjectId ? -1 : a.subjectId > b.subjectId ? 1 : 0) ||
  (a.scope < b.scope ? -1 : a.scope > b.scope ? 1 : 0)

/** Every subject the rows or the `named` rows mention, once each, in display order. */
const subjectsOf = <F extends Row, R extends Row, E extends Row>(m: Memory<F, R, E>, named: ReadonlyArray<Row>) => {
  const found = new Map<string, MemorySubject>()
  const add = (s: MemorySubject | undefined) => {
    if (s !== undefined && !found.has(subjectMarker(s))) found.set(subjectMarker(s), s)
  }
  for (const r of [...m.facts, ...m.archivedFacts, ...m.reflections, ...named]) add(subjectOfRow(r))
  for (const s of m.persona) for (const e of s.entries) add(subjectOfRow(e))
  const keyed = new Set([...found.values()].map(personaSectionKey))
  for (const s of m.persona) {
    const owner = sectionSubject(s.section)
    if (owner !== undefined && !keyed.has(personaSectionKey(owner))) add(owner)
  }
  return [...found.values()].sort(order)
}

/** One part per subject, each with only that subject's rows. */
export const subjectParts = <F extends Row, R extends Row, E extends Row>(
  m: Memory<F, R, E>,
  named: ReadonlyArray<Row>
): ReadonlyArray<{ readonly subject: MemorySubject; readonly memory: Memory<F, R, E> }> =>
  subjectsOf(m, named).map((subject) => {
    const own = stampedWith([subject])
    const section = personaSectionKey(subject)
    const persona = m.persona.flatMap((s) => {
      const entries = s.entries.filter((e) => own(e) || (s.section === section && isLegacyPrivate(e)))
      return entries.length > 0 || s.section === section ? [{ section: s.section, entries }] : []
    })
    return {
      subject,
      memory: {
        facts: m.facts.filter(own),
        archivedFacts: m.archivedFacts.filter(own),
        reflections: m.reflections.filter(own),
        persona
      }
    }
  })
