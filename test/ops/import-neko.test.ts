import { assert, describe, it } from "@effect/vitest"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import * as path from "node:path"
import { get, serverSuite } from "../support/server.js"
import { nekoApp } from "./nekoApp.js"
import { fingerprint, kioku } from "./support.js"

describe("kioku import-neko", () => {
  const { temp, start } = serverSuite()

  it("validates, copies a N.E.K.O. app directory (both layouts) and the server then serves it", async () => {
    const app = path.join(temp.root, "neko-app")
    nekoApp(app)
    const source = fingerprint(app)
    const memory = path.join(temp.root, "kioku", "memory")

    const dry = kioku(["import-neko", app, "--data-dir", memory, "--dry-run"])
    assert.strictEqual(dry.status, 0, dry.stdout + dry.stderr)
    assert.match(dry.stdout, /would import Bob \(2 files\)/)
    assert.match(dry.stdout, /would import Mochi \(\d+ files\)/)
    assert.match(dry.stderr, /\[-+\] 0\/2 {2}Bob\n/, "a progress line per character (plain lines off a terminal)")
    assert.match(dry.stderr, /\[#+\] 2\/2 {2}checked\n/)
    assert.isFalse(existsSync(path.join(temp.root, "kioku")))

    const r = kioku(["import-neko", app, "--data-dir", memory])
    assert.strictEqual(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /imported 2 character\(s\)/)
    assert.match(r.stdout, /config: core_config\.json copied/)
    assert.match(r.stdout, /config: characters\.json: Mochi added/)
    assert.match(r.stdout, /note idle_maintenance_state\.json: root-level file not imported/)
    assert.deepStrictEqual(fingerprint(app), source)
    assert.sameMembers(
      readdirSync(memory).filter((f) => !f.startsWith(".kioku")),
      ["Bob", "Mochi"]
    )
    assert.sameMembers(readdirSync(path.join(memory, "Bob")), ["recent.json", "settings.json"])
    assert.strictEqual(
      readFileSync(path.join(memory, "Mochi", "facts.json"), "utf8"),
      readFileSync(path.join(app, "memory", "Mochi", "facts.json"), "utf8")
    )
    const characters = JSON.parse(readFileSync(path.join(temp.root, "kioku", "config", "characters.json"), "utf8"))
    assert.deepStrictEqual(Object.keys(characters.猫娘), ["Mochi", "Bob"])
    assert.strictEqual(characters.当前猫娘, "Mochi")

    const doctor = kioku(["doctor", "--data-dir", memory])
    assert.strictEqual(doctor.status, 0, doctor.stdout)

    const server = await start(memory)
    const live = kioku(["import-neko", app, "--data-dir", memory, "--force"])
    assert.strictEqual(live.status, 1)
    assert.match(live.stderr, /another kioku process \(pid \d+\) is using the memory root/)
    assert.include((await get(`${server.url}/get_recent_history/Mochi`)).text, "I brewed sencha this morning")
    assert.include((await get(`${server.url}/get_recent_history/Bob`)).text, "I fix bicycles")
    const dialog = await get(`${server.url}/new_dialog/Mochi`)
    assert.strictEqual(dialog.status, 200)
    assert.include(dialog.text, "Ren is a night owl")
    assert.include(readFileSync(path.join(memory, "Bob", "persona.json"), "utf8"), "hobby: cycling")
  })

  it("refuses an existing character unless --force, and keeps the replaced one aside", async () => {
    const app = path.join(temp.root, "again")
    nekoApp(app)
    const memory = path.join(temp.root, "again-kioku", "memory")
    assert.strictEqual(kioku(["import-neko", app, "--data-dir", memory]).status, 0)
    writeFileSync(path.join(memory, "Bob", "recent.json"), "[]")
    const config = path.join(temp.root, "again-kioku", "config", "characters.json")
    writeFileSync(config, JSON.stringify({ 猫娘: { Bob: { 性格: "changed here" } }, 当前猫娘: "Bob" }))
    const before = fingerprint(memory)
    const refused = kioku(["import-neko", app, "--data-dir", memory])
    assert.strictEqual(refused.status, 1)
    assert.match(refused.stdout, /problem Bob: the destination already has this character — fix: use --force/)
    assert.deepStrictEqual(fingerprint(memory), before)
    const forced = kioku(["import-neko", app, "--data-dir", memory, "--force"])
    assert.strictEqual(forced.status, 0, forced.stdout + forced.stderr)
    assert.match(forced.stdout, /imported Bob \(2 files\), replacing the existing one/)
    assert.match(forced.stdout, /config: characters\.json: Bob replaced/)
    assert.match(forced.stdout, /config: characters\.json: Mochi added/)
    const merged = JSON.parse(readFileSync(config, "utf8"))
    assert.deepStrictEqual(merged.猫娘, { Bob: {}, Mochi: { 性格: "calm" } })
    assert.strictEqual(merged.当前猫娘, "Bob")
    assert.include(readFileSync(path.join(memory, "Bob", "recent.json"), "utf8"), "I fix bicycles")
    const aside = path.join(temp.root, "again-kioku", "kioku-replaced")
    const [stamp] = readdirSync(aside)
    assert.strictEqual(readFileSync(path.join(aside, stamp ?? "", "Bob", "recent.json"), "utf8"), "[]")
  })

  it("refuses a memory root whose views do not decode, naming each problem, and copies nothing", () => {
    const app = path.join(temp.root, "broken")
    const { mochi, memory: source } = nekoApp(app)
    writeFileSync(path.join(mochi, "reflections.json"), '[{"id": "ref_x"}]')
    writeFileSync(path.join(source, "facts_Bob.json"), "{ torn")
    const memory = path.join(temp.root, "broken-kioku", "memory")
    const r = kioku(["import-neko", app, "--data-dir", memory])
    assert.strictEqual(r.status, 1)
    assert.match(r.stdout, /problem Mochi\/reflections\.json: does not decode: at \[0\]\.text/)
    assert.match(r.stdout, /problem Bob\/facts\.json: does not decode/)
    assert.match(r.stderr, /refused: 2 problem/)
    assert.deepStrictEqual(
      readdirSync(memory).filter((f) => !f.startsWith(".kioku")),
      []
    )
  })
})
