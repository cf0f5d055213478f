/**
 * Chaos (a): the real server under a mixed load over 20 characters, SIGKILLed at random moments (every
 * third time during startup recovery instead) and restarted each time. Afterwards every acknowledged turn is in `time_indexed.db` exactly once (and in
 * recent.json: all of them for characters never compressed, the latest for the others), every view and
 * journal line decodes, outbox replay left no duplicate fact or reflection, and the reconciler has
 * converged: a further restart leaves every file but the lock byte-identical.
 */
import { assert, describe, it } from "@effect/vitest"
import { mkdirSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { makeTempRoot, post, startServer, type RunningServer } from "../support/server.js"
import { diff, memories, quiet, recentTexts, rowTexts, snapshot, undecodable } from "./inspect.js"
import { characterNames, drive, isMixed, newTally } from "./load.js"
import { profile, prng, seed } from "./profile.js"

/** The root lock and its holder's pid change with every process by design. */
const ownFiles = (rel: string) => rel.startsWith(".kioku.lock")

const isSubsequence = (needles: ReadonlyArray<string>, hay: ReadonlyArray<string>) => {
  let at = 0
  for (const x of hay) if (x === needles[at]) at++
  return at === needles.length
}

/**
 * Starts the server blocked, asks it to recover (the request answers once recovery is done) and SIGKILLs it
 * `delay` ms later; true when the kill came before recovery finished.
 */
const killDuringRecovery = async (memory: string, delay: number) => {
  const server = await startServer(memory, ["--start-blocked"])
  let recovered = false
  const recovering = post(`${server.url}/internal/storage/startup/continue`, "{}").then(
    () => (recovered = true),
    () => undefined
  )
  await new Promise((r) => setTimeout(r, delay))
  await server.kill9()
  await recovering
  return !recovered
}

describe("chaos: SIGKILL under mixed load", () => {
  it(
    `loses no acknowledged turn across ${profile.kills} kills (${profile.name} profile, seed ${seed})`,
    async () => {
      const temp = makeTempRoot()
      const memory = temp.memory
      const characters = characterNames(profile.characters)
      const rng = prng(seed)
      // Powerful memory off: every turn's extract_facts outbox op extracts facts, so replays are exercised.
      mkdirSync(path.join(temp.root, "config"))
      writeFileSync(
        path.join(temp.root, "config", "core_config.json"),
        JSON.stringify({ powerful_memory_enabled: false })
      )
      const tally = newTally()
      const started = Date.now()
      let server: RunningServer | undefined
      try {
        let duringRecovery = 0
        for (let kill = 0; kill < profile.kills; kill++) {
          // Every third kill lands during startup recovery (journal replay, outbox replay) instead of under load.
          if (kill % 3 === 2) {
            if (await killDuringRecovery(memory, rng.int(0, 150))) duringRecovery++
            continue
          }
          server = await startServer(memory)
          let stopped = false
          const url = server.url
          const clients = characters.map((c, i) =>
            drive(url, c, isMixed(c, characters), prng(seed + kill * 1000 + i), `k${kill}`, tally, () => stopped)
          )
          await new Promise((r) => setTimeout(r, rng.int(profile.loadMillis[0], profile.loadMillis[1])))
          await server.kill9()
          stopped = true
          await Promise.all(clients)
        }
        server = await startServer(memory)
        await quiet(memory, characters)
        const failures: Array<string> = [...tally.wrong]
        let recovered = 0
        let ackedTexts = 0
        let facts = 0
        let reflections = 0
        for (const c of characters) {
          const dir = path.join(memory, c)
          const acks = tally.acks.filter((a) => a.character === c)
          const rows = rowTexts(dir)
          const recent = recentTexts(dir)
          for (const a of acks) {
            for (const t of a.texts) {
              ackedTexts++
              const times = rows.filter((r) => r === t).length
              if (times === 1) recovered++
              else failures.push(`${c}: "${t}" is in time_indexed.db ${times} times`)
            }
          }
          const expectedRecent = isMixed(c, characters)
            ? (acks[acks.length - 1]?.texts ?? [])
            : acks.flatMap((a) => a.texts)
          if (!isSubsequence(expectedRecent, recent)) failures.push(`${c}: acknowledged turns missing from recent.json`)
          failures.push(...undecodable(dir).map((p) => `${c}: ${p}`))
          const m = memories(dir)
          facts += m.facts
          reflections += m.reflections
          failures.push(...m.duplicates.map((d) => `${c}: duplicate ${d}`))
        }
        await server.stop()
        const before = snapshot(memory, ownFiles)
        server = await startServer(memory)
        await quiet(memory, characters)
        await server.stop()
        server = undefined
        const changed = diff(before, snapshot(memory, ownFiles))
        const figures = {
          profile: profile.name,
          seed,
          kills: profile.kills,
          killsDuringRecovery: duringRecovery,
          characters: characters.length,
          sent: tally.sent,
          acknowledged: tally.acked,
          acknowledgedMessages: ackedTexts,
          recoveredMessages: recovered,
          lost: ackedTexts - recovered,
          facts,
          reflections,
          seconds: Math.round((Date.now() - started) / 1000)
        }
        console.log(`chaos sigkill figures: ${JSON.stringify(figures)}`)
        assert.deepStrictEqual(failures, [], `seed ${seed}`)
        assert.deepStrictEqual(changed, [], `second restart changed files (seed ${seed})`)
        assert.isAbove(tally.acks.length, profile.kills, "the load acknowledged too few turns to mean anything")
      } finally {
        await server?.kill9()
        temp.cleanup()
      }
    },
    profile.timeout
  )
})
