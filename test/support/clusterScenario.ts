/**
 * The cluster acceptance scenario, for any shard storage: three runners on loopback share one memory root;
 * 30 characters are written through all three gateways; one runner is SIGKILLed and its characters must be
 * served by the others within 30 s; a fourth runner joins and takes shards over. Afterwards the journals and
 * owners logs must show every acknowledged turn exactly once, no turn twice, no two runners holding a
 * character at once, and every journaled turn written inside its writer's hold.
 */
import { assert } from "@effect/vitest"
import { history, makeTempRoot, post, turn } from "./server.js"
import { holds, journalTurns, ownerLogs, overlaps, startRunner, type Runner } from "./cluster.js"

const characters = Array.from({ length: 30 }, (_, i) => `c${i}`)
const failoverDeadline = 30_000
const joinDeadline = 60_000

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

export interface ScenarioFigures {
  readonly failoverMs: number
  readonly joinMs: number
  readonly movedToJoiner: number
}

export const failoverScenario = async (shardDb: string, env: Readonly<Record<string, string>> = {}) => {
  const temp = makeTempRoot()
  const runners: Array<Runner> = []
  const acked = new Map<string, Array<string>>(characters.map((c) => [c, []]))
  const sent = new Map<string, Array<string>>(characters.map((c) => [c, []]))
  const write = async (gateway: Runner, name: string, text: string) => {
    sent.get(name)?.push(text)
    const r = await post(`${gateway.url}/cache/${name}`, history(turn(text, `ok ${text}`))).catch(() => undefined)
    if (r?.status === 200) acked.get(name)?.push(text)
    return r?.status === 200
  }
  try {
    for (let i = 0; i < 3; i++) runners.push(await startRunner(temp.memory, shardDb, env))
    const [r0, r1, r2] = runners
    if (r0 === undefined || r1 === undefined || r2 === undefined) throw new Error("runners did not start")
    for (const [i, name] of characters.entries()) {
      assert.isTrue(await write(runners[i % 3] ?? r0, name, `a-${name}`), `first write of ${name}`)
    }
    const before = ownerLogs(temp.memory)
    const ofVictim = characters.filter((c) => before.get(c)?.at(-1)?.runner === r1.id)
    assert.isAbove(ofVictim.length, 0, "the victim owned characters")

    await r1.kill9()
    const killedAt = Date.now()
    const survivors = [r0, r2]
    let failoverMs = 0
    for (const [i, name] of characters.entries()) {
      for (let attempt = 0; ; attempt++) {
        if (await write(survivors[(i + attempt) % 2] ?? r0, name, `b${attempt}-${name}`)) break
        assert.isBelow(Date.now() - killedAt, failoverDeadline, `${name} not served after the kill`)
        await sleep(250)
      }
      failoverMs = Math.max(failoverMs, Date.now() - killedAt)
    }
    assert.isBelow(failoverMs, failoverDeadline)

    const joiner = await startRunner(temp.memory, shardDb, env)
    runners.push(joiner)
    const joinedAt = Date.now()
    const gateways = [r0, r2, joiner]
    const byJoiner = () =>
      characters.filter(
        (c) =>
          ownerLogs(temp.memory)
            .get(c)
            ?.some((e) => e.runner === joiner.id) === true
      )
    for (let round = 0; byJoiner().length === 0; round++) {
      assert.isBelow(Date.now() - joinedAt, joinDeadline, "no shard moved to the joining runner")
      for (const [i, name] of characters.entries())
        await write(gateways[(i + round) % 3] ?? r0, name, `c${round}-${name}`)
      await sleep(500)
    }
    const joinMs = Date.now() - joinedAt
    for (const [i, name] of characters.entries()) await write(gateways[i % 3] ?? r0, name, `d-${name}`)
    const movedToJoiner = byJoiner().length
    await Promise.all(runners.filter((r) => r !== r1).map((r) => r.stop()))

    const killed = new Map([[r1.id, killedAt]])
    for (const name of characters) {
      const log = ownerLogs(temp.memory).get(name) ?? []
      assert.deepStrictEqual(overlaps(log, killed), [], `holds of ${name}`)
      const turns = journalTurns(temp.memory, name)
      const texts = turns.flatMap((t) => t.texts)
      for (const text of acked.get(name) ?? []) {
        assert.strictEqual(texts.filter((t) => t === text).length, 1, `acknowledged ${text} journaled once`)
      }
      for (const text of sent.get(name) ?? []) {
        assert.isAtMost(texts.filter((t) => t === text).length, 1, `${text} journaled at most once`)
      }
      const intervals = holds(log, killed)
      for (const t of turns) {
        const writers = intervals.filter((h) => h.from <= t.at && t.at <= h.to)
        assert.strictEqual(writers.length, 1, `${name}: a turn at ${t.at} written inside exactly one hold`)
      }
    }
    const figures: ScenarioFigures = { failoverMs, joinMs, movedToJoiner }
    return figures
  } finally {
    await Promise.all(runners.map((r) => r.stop()))
    temp.cleanup()
  }
}
