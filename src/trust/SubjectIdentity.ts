/**
 * Subjects resolved through the identity graph (pure over a `TrustSnapshot`). Stored subject ids never
 * change; instead a participant (one entity in one conversation) is read as every subject of its accounts on
 * the same platform, and written under its sealed canonical account. Only default-scope subjects take part;
 * a custom scope, an unloaded pool or an unknown account is the identity. Expansion never truncates (the
 * bound is the 8 accounts of a bind), never crosses a platform, always keeps the requested subject, and drops
 * a combination the subject constructors refuse (an actor holding `:` inside a group participant).
 */
import { Either } from "effect"
import {
  distinctSubjects,
  groupChat,
  groupParticipant,
  participant,
  subjectKey,
  subjectMarker,
  type MemorySubject,
  type SubjectKind
} from "../domain/Subject.js"
import { normalizeAccountId } from "./Identity.js"
import { accountsOf, canonicalAccount, entityOf, type TrustSnapshot } from "./TrustSnapshot.js"

/** Several subjects that are the same participant: `primary` heads the slot, `markers` authorise reads. */
export interface ParticipantGroup {
  readonly primary: MemorySubject
  readonly members: ReadonlyArray<MemorySubject>
  readonly markers: ReadonlySet<string>
}

export const participantGroup = (primary: MemorySubject, members: ReadonlyArray<MemorySubject>): ParticipantGroup => {
  const ordered = distinctSubjects([primary, ...members])
  return { primary, members: ordered, markers: new Set(ordered.map(subjectMarker)) }
}

const isDefaultScope = (s: MemorySubject) => s.scope === `${s.kind}:${s.subjectId}`
const decode = (v: string) => v.replace(/%3A/g, ":").replace(/%25/g, "%")

/** [platform, conversation, actor], decoded; the kinds without a conversation or an actor leave it undefined. */
const split = (s: MemorySubject): readonly [string, string | undefined, string | undefined] => {
  const parts = s.subjectId.split(":").map(decode)
  const [a = "", b, c] = parts
  if (s.kind === "group_participant") return parts.length === 3 ? [a, b, c] : [s.subjectId, undefined, undefined]
  if (parts.length !== 2) return [s.subjectId, undefined, undefined]
  return s.kind === "participant" ? [a, undefined, b] : [a, b, undefined]
}

/** The decoded actor of a subject (`a:b` for a stored `a%3Ab`), undefined for a group chat. */
export const subjectActor = (s: MemorySubject): string | undefined => split(s)[2]

/** The platform segment of a subject id as stored. */
export const subjectPlatform = (s: MemorySubject): string => s.subjectId.split(":")[0] ?? ""

const build = (kind: SubjectKind, platform: string, conversation: string | undefined, actor: string | undefined) =>
  Either.getOrUndefined(
    kind === "group_participant"
      ? groupParticipant(platform, conversation ?? "", actor ?? "")
      : kind === "participant"
        ? participant(platform, actor ?? "")
        : groupChat(platform, conversation ?? "")
  )

const accountOf = (platform: string, actor: string) => normalizeAccountId(`${platform}:${actor}`)

/** The participant a subject belongs to, as a comparable key (the subject itself when nothing resolves). */
export const participantKey = (s: MemorySubject, snap: TrustSnapshot): string => {
  const identity = [s.kind, s.subjectId, s.scope].join("\u0000")
  if (!snap.loaded || !isDefaultScope(s)) return identity
  const [platform, conversation, actor] = split(s)
  const account = actor === undefined ? undefined : accountOf(platform, actor)
  const entity = account === undefined ? undefined : entityOf(snap, account)
  if (entity === undefined && s.kind !== "group_chat") return identity
  return ["p", s.kind, entity ?? s.subjectId, platform, conversation ?? ""].join("\u0000")
}

/** Every subject of the participant, canonical first, the requested one always included. */
export const expandSubject = (s: MemorySubject, snap: TrustSnapshot): ReadonlyArray<MemorySubject> => {
  if (!snap.loaded || !isDefaultScope(s)) return [s]
  const [platform, conversation, actor] = split(s)
  if (actor === undefined) return [s]
  const account = accountOf(platform, actor)
  if (account === undefined || entityOf(snap, account) === undefined) return [s]
  const out: Array<MemorySubject> = []
  const seen = new Set<string>()
  for (const member of accountsOf(snap, account)) {
    const colon = member.indexOf(":")
    const memberActor = member.slice(colon + 1)
    if (colon < 0 || memberActor === "" || member.slice(0, colon) !== platform) continue
    const built = build(s.kind, platform, conversation, memberActor)
    if (built !== undefined && !seen.has(subjectMarker(built))) {
      seen.add(subjectMarker(built))
      out.push(built)
    }
  }
  if (!seen.has(subjectMarker(s))) out.push(s)
  return out
}

/** Where a write for `s` goes: the same subject under the entity's sealed canonical account, else `s`. */
export const canonicalSubject = (s: MemorySubject, snap: TrustSnapshot): MemorySubject => {
  if (!snap.loaded || !isDefaultScope(s)) return s
  const [platform, conversation, actor] = split(s)
  if (actor === undefined) return s
  const account = accountOf(platform, actor)
  const entity = account === undefined ? undefined : entityOf(snap, account)
  const canonical = entity === undefined ? undefined : canonicalAccount(snap, entity, platform)
  if (canonical === undefined) return s
  const colon = canonical.indexOf(":")
  if (canonical.slice(0, colon) !== platform || colon === canonical.length - 1) return s
  return build(s.kind, platform, conversation, canonical.slice(colon + 1)) ?? s
}

/** One slot per participant, in first-appearance order (the order is the render budget priority). */
export const foldParticipants = (
  subjects: ReadonlyArray<MemorySubject>,
  snap: TrustSnapshot
): ReadonlyArray<ParticipantGroup> => {
  const groups: Array<ParticipantGroup> = []
  const index = new Map<string, number>()
  for (const s of subjects) {
    const key = participantKey(s, snap)
    const members = expandSubject(s, snap)
    const at = index.get(key)
    const existing = at === undefined ? undefined : groups[at]
    if (at === undefined || existing === undefined) {
      index.set(key, groups.length)
      const canonical = canonicalSubject(s, snap)
      const primary = members.some((m) => subjectMarker(m) === subjectMarker(canonical)) ? canonical : s
      groups.push(participantGroup(primary, members))
    } else groups[at] = participantGroup(existing.primary, [...existing.members, ...members, s])
  }
  return groups
}

/** The groups' members as one authorisation list, group order then member order, without repeats. */
export const flattenGroups = (groups: ReadonlyArray<ParticipantGroup>): ReadonlyArray<MemorySubject> => {
  return distinctSubjects(groups.flatMap((g) => g.members))
}

/** Every subject a forget of `s` erases: its whole participant on the same platform, sorted by (key, scope). */
export const forgetFanoutTargets = (s: MemorySubject, snap: TrustSnapshot): ReadonlyArray<MemorySubject> => {
  const platform = subjectPlatform(s)
  const targets = expandSubject(s, snap).filter((t) => subjectPlatform(t) === platform)
  if (!targets.some((t) => subjectMarker(t) === subjectMarker(s))) targets.push(s)
  const order = (t: MemorySubject) => [subjectKey(t), t.scope] as const
  return [...targets].sort((a, b) => {
    const [ka, sa] = order(a)
    const [kb, sb] = order(b)
    return ka < kb ? -1 : ka > kb ? 1 : sa < sb ? -1 : sa > sb ? 1 : 0
  })
}
