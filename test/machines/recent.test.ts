import { assert, describe, it } from "@effect/vitest"
import { Option } from "effect"
import { initialTransition, transition, type SnapshotFrom } from "xstate"
import { recentMachine, type RecentEvent } from "../../machines/recent.js"
import { decodeRecentCommand } from "../../machines/recentActions.js"

type Snapshot = SnapshotFrom<typeof recentMachine>
const start = (limits = {}) => initialTransition(recentMachine, { limits })[0]
const step = (s: Snapshot, e: RecentEvent) => {
  const [next, actions] = transition(recentMachine, s, e)
  const commands = actions.flatMap((a) => Option.toArray(decodeRecentCommand(a)))
  return { s: next, types: commands.map((c) => c.type), commands }
}
const run = (s: Snapshot, events: ReadonlyArray<RecentEvent>) => events.reduce((acc, e) => step(acc, e).s, s)
const request = (over: Partial<Extract<RecentEvent, { type: "compress.requested" }>> = {}): RecentEvent => ({
  type: "compress.requested",
  detailed: false,
  own: false,
  key: "k1",
  now: 0,
  ...over
})
const failed = (generation: number, now = 0, key = "k1"): RecentEvent => ({
  type: "compression.failed",
  generation,
  key,
  detailed: true,
  now
})

describe("recent machine", () => {
  it("starts a compression when something is over the threshold, answers at once when nothing is", () => {
    const started = step(start(), request())
    assert.strictEqual(started.s.value, "compressing")
    assert.deepStrictEqual(started.types, ["startCompression", "waitFor"])
    assert.deepStrictEqual(started.commands[0], {
      type: "startCompression",
      params: { detailed: false, generation: 1 }
    })
    const nothing = step(start(), request({ key: null }))
    assert.strictEqual(nothing.s.value, "idle")
    assert.deepStrictEqual(nothing.types, ["answer"])
  })

  it("queues an own request behind the running compression; others join it", () => {
    const running = step(start(), request()).s
    const joined = step(running, request())
    assert.deepStrictEqual(joined.commands, [{ type: "waitFor", params: { generation: 1 } }])
    const queued = step(running, request({ own: true, detailed: true }))
    assert.deepStrictEqual(queued.commands, [{ type: "waitFor", params: { generation: 2 } }])
    assert.deepStrictEqual(queued.s.context.queued, { detailed: true })
    const done = step(queued.s, { type: "compression.succeeded", generation: 1 })
    assert.deepStrictEqual(done.types, ["commitCompression", "release", "resumeQueue"])
    assert.deepStrictEqual(done.commands[1], { type: "release", params: { generation: 1 } })
    const resumed = step(done.s, { type: "queue.resumed", key: "k2", now: 0 })
    assert.strictEqual(resumed.s.value, "compressing")
    assert.deepStrictEqual(resumed.commands, [{ type: "startCompression", params: { detailed: true, generation: 2 } }])
    assert.isNull(resumed.s.context.queued)
  })

  it("releases a queued request at once when its compression has nothing left to do", () => {
    const s = run(start(), [request(), request({ own: true }), { type: "compression.succeeded", generation: 1 }])
    const resumed = step(s, { type: "queue.resumed", key: null, now: 0 })
    assert.strictEqual(resumed.s.value, "idle")
    assert.deepStrictEqual(resumed.commands, [{ type: "release", params: { generation: 2 } }])
    assert.strictEqual(resumed.s.context.generation, 2)
  })

  it("ignores a result of another generation", () => {
    const s = step(start(), request()).s
    assert.deepStrictEqual(step(s, { type: "compression.succeeded", generation: 7 }).types, [])
    assert.strictEqual(step(s, { type: "compression.succeeded", generation: 7 }).s.value, "compressing")
  })

  it("backs off after a failure (hard cap, retry), dead-letters the snapshot after 5, and self-heals", () => {
    let s = start({ maxAttempts: 5, selfHealSeconds: 100 })
    for (let attempt = 1; attempt <= 4; attempt++) {
      s = step(s, request({ now: attempt })).s
      const r = step(s, failed(s.context.generation, attempt))
      assert.strictEqual(r.s.value, "backoff")
      assert.deepStrictEqual(r.types, ["hardCap", "release", "retryLater", "resumeQueue"])
      assert.deepStrictEqual(r.commands[2], {
        type: "retryLater",
        params: { detailed: true, attempts: attempt, deadLettered: false }
      })
      s = r.s
    }
    s = step(s, request({ now: 5 })).s
    const dead = step(s, failed(s.context.generation, 5))
    assert.strictEqual(dead.s.value, "dead_letter")
    assert.deepStrictEqual(dead.commands[2], {
      type: "retryLater",
      params: { detailed: true, attempts: 5, deadLettered: true }
    })
    const refused = step(dead.s, request({ now: 50_000 }))
    assert.deepStrictEqual(refused.types, ["answer"])
    assert.strictEqual(refused.s.value, "dead_letter")
    assert.strictEqual(step(dead.s, request({ now: 50_000, key: "other" })).s.value, "compressing")
    const healed = step(dead.s, request({ now: 105_001 }))
    assert.strictEqual(healed.s.value, "compressing")
    const ok = step(healed.s, { type: "compression.succeeded", generation: healed.s.context.generation })
    assert.strictEqual(ok.s.value, "idle")
    assert.isNull(ok.s.context.failure)
  })

  it("offers a review after the compression it waited for, and only through the gate", () => {
    const s = run(start(), [request(), { type: "review.wanted" }])
    assert.isTrue(s.context.reviewWanted)
    const done = step(s, { type: "compression.succeeded", generation: 1 }).s
    const resumed = step(done, { type: "queue.resumed", key: null, now: 0 })
    assert.deepStrictEqual(resumed.types, ["checkReview"])
    assert.strictEqual(step(resumed.s, { type: "review.checked", gate: "too_soon" }).s.value, "idle")
    const reviewing = step(resumed.s, { type: "review.checked", gate: "ok" })
    assert.strictEqual(reviewing.s.value, "reviewing")
    assert.deepStrictEqual(reviewing.commands, [{ type: "startReview", params: { generation: 1 } }])
    assert.deepStrictEqual(step(reviewing.s, { type: "review.wanted" }).types, [])
  })

  it("commits only the current review; cancelling or a compression ends it", () => {
    const reviewing = run(start(), [{ type: "review.wanted" }, { type: "review.checked", gate: "ok" }])
    assert.deepStrictEqual(step(reviewing, { type: "review.finished", generation: 9 }).types, [])
    const done = step(reviewing, { type: "review.finished", generation: 1 })
    assert.deepStrictEqual(done.types, ["commitReview"])
    assert.strictEqual(done.s.value, "idle")
    const cancelled = step(reviewing, { type: "review.cancelled" })
    assert.deepStrictEqual(cancelled.types, ["cancelReview"])
    assert.deepStrictEqual(step(cancelled.s, { type: "review.cancelled" }).types, [])
    assert.deepStrictEqual(step(cancelled.s, { type: "review.finished", generation: 1 }).types, [])
    const preempted = step(reviewing, request())
    assert.strictEqual(preempted.s.value, "compressing")
    assert.deepStrictEqual(preempted.types, ["cancelReview", "startCompression", "waitFor"])
    assert.isTrue(preempted.s.context.reviewWanted)
  })

  it("compresses when idle long enough, else checks again later; never while busy", () => {
    const s = start({ idleSeconds: 10 })
    assert.deepStrictEqual(step(s, { type: "idle.checked", idleForMs: 10_000 }).types, ["compressIdle"])
    assert.deepStrictEqual(step(s, { type: "idle.checked", idleForMs: 9_999 }).types, ["scheduleIdleCheck"])
    const busy = step(s, request()).s
    assert.deepStrictEqual(step(busy, { type: "idle.checked", idleForMs: 60_000 }).types, [])
  })
})
