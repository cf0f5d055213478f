/**
 * Which segments of a `scoped_history` request are owner segments to judge for trust signals, and what each
 * job carries (pure). A segment is one when it says `speaker_is_owner` and names its speaker (`speaker_id`
 * with a label, the provenance its facts are stamped with) — the admin tier was checked when the request was
 * parsed. Evaluated whatever the segment's extraction gave (its events settle either way; the answer shows
 * them only on an `ok` segment). An owner sees the facts from before the request and those earlier segments
 * of it created, never a later segment's; the owner's entity's accounts are the owner's own.
 */
import { isHuman, messageText } from "../domain/Message.js"
import type { SegmentOutcome } from "../MemoryService.js"
import type { FactIdentity } from "../trust/OwnerSignals.js"
import { accountsOf, type TrustSnapshot } from "../trust/TrustSnapshot.js"
import type { OwnerSignalJob } from "./ScopedCommands.js"
import type { Segment } from "./ScopedRequests.js"

const excludedOf = (s: Segment): ReadonlyArray<FactIdentity> => {
  const raw = "trust_signal_excluded_fact_identities" in s.body ? s.body.trust_signal_excluded_fact_identities : []
  return (raw ?? []).flatMap((parts) => {
    const clean = parts.map((p) => p.trim())
    const [id, kind, subjectId, scope] = clean
    return id && kind && subjectId && scope ? [[id, kind, subjectId, scope] as const] : []
  })
}

export const isOwnerSegment = (s: Segment): boolean =>
  s.body.speaker_is_owner === true && s.speakerId !== undefined && s.provenance !== undefined

/** The owner jobs of a request, each with the position of its segment. */
export const ownerJobs = (
  character: string,
  segments: ReadonlyArray<Segment>,
  outcomes: ReadonlyArray<SegmentOutcome>,
  snap: TrustSnapshot
): ReadonlyArray<{ readonly position: number; readonly job: OwnerSignalJob }> => {
  const createdFrom = (i: number) =>
    outcomes.slice(i).flatMap((o) => (o.status === "ok" ? o.written.created.map((f) => f.id) : []))
  return segments.flatMap((s, position) => {
    if (!isOwnerSegment(s) || s.speakerId === undefined) return []
    const texts = s.messages
      .filter(isHuman)
      .map((m) => messageText(m).trim())
      .filter((t) => t !== "")
    if (texts.length === 0) return []
    const job: OwnerSignalJob = {
      character,
      sourceId: s.speakerId,
      selfAccounts: accountsOf(snap, s.speakerId),
      subject: s.subject,
      texts,
      excluded: excludedOf(s),
      hidden: createdFrom(position)
    }
    return [{ position, job }]
  })
}
