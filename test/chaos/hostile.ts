/**
 * Hostile HTTP requests for the chaos suite, generated from a seeded PRNG and sent over raw sockets (so
 * paths, headers and bodies can be anything, invalid UTF-8 included). Every request is invalid by
 * construction — a bad character name, a body that does not decode, a wrong method, content type or host,
 * an unknown route, an oversized body or header, a path with invalid UTF-8 — so the only right answers are a
 * 4xx or one of N.E.K.O.'s error bodies. (N.E.K.O. trims names, so "\nName" is valid and not used here.)
 */
import { connect } from "node:net"
import type { Prng } from "./profile.js"

export interface Hostile {
  readonly kind: string
  readonly method: string
  /** Raw request target, sent as bytes (may hold anything but CR/LF). */
  readonly target: Buffer
  readonly headers: ReadonlyArray<readonly [string, Buffer | string]>
  readonly body: Buffer
}

export interface Answer {
  readonly status: number
  readonly body: string
}

const MiB = 1024 * 1024
export const KNOWN = "Known"

/** Routes taking `{name}`, with the method they answer to and whether they read a JSON body. */
const named: ReadonlyArray<readonly [string, string, boolean]> = [
  ["POST", "/cache/", true],
  ["POST", "/process/", true],
  ["POST", "/renew/", true],
  ["POST", "/settle/", true],
  ["POST", "/query_memory/", true],
  ["POST", "/record_surfaced/", true],
  ["POST", "/reflect/", false],
  ["POST", "/cancel_correction/", false],
  ["GET", "/new_dialog/", false],
  ["GET", "/get_recent_history/", false],
  ["GET", "/last_conversation_gap/", false],
  ["GET", "/get_settings/", false],
  ["GET", "/get_persona/", false],
  ["GET", "/followup_topics/", false],
  ["GET", "/prompt-locale/", false],
  ["PUT", "/prompt-locale/", true],
  ["POST", "/release_character/", false],
  ["GET", "/api/memory/funnel/", false],
  ["GET", "/api/memory/browser/", false],
  ["GET", "/api/memory/statecharts/", false]
]
/** Routes without a name whose JSON body names what they act on. */
const bodied: ReadonlyArray<string> = [
  "/api/memory/entry_edit",
  "/api/memory/entry_action",
  "/api/memory/recent_file/save",
  "/api/memory/update_catgirl_name",
  "/api/memory/powerful_memory_config",
  "/api/memory/review_config"
]
const plain: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/"],
  ["GET", "/health"],
  ["GET", "/memory_browser"],
  ["GET", "/statecharts"],
  ["GET", "/api/memory/live_actors"],
  ["GET", "/api/memory/statecharts/characters"],
  ["GET", "/api/memory/recent_files"],
  ["GET", "/api/memory/recent_file"],
  ["POST", "/shutdown"],
  ["POST", "/internal/maintenance/run_once"],
  ["POST", "/internal/memory/reset_confirmed_at"],
  ["POST", "/internal/storage/startup/continue"],
  ["POST", "/internal/storage/startup/block"],
  ...bodied.map((p) => ["POST", p] as const)
]

/** Routes above that also answer GET. */
const alsoGet: ReadonlyArray<readonly [string, string]> = [
  ["GET", "/api/memory/powerful_memory_config"],
  ["GET", "/api/memory/review_config"]
]

const badNames = [
  "..",
  ".",
  "%2E%2E",
  "..%2F..%2Fetc",
  "a%2Fb",
  "a%5Cb",
  "..%5C..%5Cwindows",
  "CON",
  "nul.txt",
  "COM1",
  "LPT9.log",
  "trailing.",
  "%20%20",
  "x".repeat(51),
  "%00",
  "a%00b",
  "%FF%FE",
  "%C3%28",
  "%ED%A0%80",
  "health",
  "Internal",
  "%E2%80%AE..",
  "~"
]
/** Names that must be refused inside JSON bodies (never valid character names). */
const badBodyNames = ["..", "../x", "a/b", "a\\b", "CON", ".", "", "x".repeat(51), "nul.txt", "trailing."]

const nested = (depth: number, open: string, close: string) => open.repeat(depth) + close.repeat(depth)

/**
 * A body that does not decode as the route's request (but may be well-formed JSON). `/query_memory` takes
 * any object (every field is optional, unknown ones ignored), so it only gets bodies that are not objects
 * or whose fields have the wrong type.
 */
const junkBody = (rng: Prng, query: boolean): Buffer => {
  const pick = query ? rng.pick([0, 1, 7, 9, 10, 12]) : rng.int(0, 11)
  if (pick === 12) return Buffer.from(JSON.stringify({ query: rng.pick([42, [], {}, true]), time: 5 }))
  if (pick === 0) return rng.bytes(rng.int(1, 4096))
  if (pick === 1) return Buffer.from(nested(rng.int(1000, 200_000), "[", "]"))
  if (pick === 2) return Buffer.from(JSON.stringify({ input_history: nested(rng.int(1000, 100_000), "[", "]") }))
  if (pick === 3) return Buffer.from(nested(rng.int(1000, 100_000), '{"a":', "}").replace(/}$/, "1}"))
  if (pick === 4) return Buffer.concat([Buffer.from('{"input_history": "[\\"'), rng.bytes(64), Buffer.from('\\"]"}')])
  if (pick === 5) return Buffer.from(JSON.stringify({ input_history: "x".repeat(rng.int(1, 4) * MiB) }))
  if (pick === 6) return Buffer.from(JSON.stringify({ input_history: 42, query: { $ne: null } }))
  if (pick === 7) return Buffer.from(rng.pick(["null", "true", "[]", '"string"', "1e999", "{", "", "\u0000"]))
  if (pick === 8) return Buffer.from(JSON.stringify({ __proto__: { polluted: true }, constructor: { prototype: 1 } }))
  if (pick === 9) return Buffer.from(JSON.stringify({ subjects: [], query: "x" }))
  if (pick === 10) return Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0x7b, 0x7d])
  return Buffer.from(JSON.stringify({ input_history: JSON.stringify([{ role: "user", content: "x" }]) }).slice(0, -3))
}

/** A body for a name-in-body route whose name is invalid (everything else well-formed). */
const badNameBody = (rng: Prng, route: string): Buffer => {
  const name = rng.pick(badBodyNames)
  const bodies: Record<string, unknown> = {
    "/api/memory/entry_edit": { lanlan_name: name, kind: "fact", id: "f1", text: "x" },
    "/api/memory/entry_action": { lanlan_name: name, kind: "reflection", id: "r1", action: "confirm" },
    "/api/memory/recent_file/save": {
      filename: `recent_${name}.json`,
      chat: [],
      fingerprint: "x",
      identity_token: "y"
    },
    "/api/memory/update_catgirl_name": { old_name: rng.next() < 0.5 ? name : KNOWN, new_name: name },
    "/internal/maintenance/run_once": { character: name }
  }
  return Buffer.from(JSON.stringify(bodies[route] ?? { lanlan_name: name }))
}

const json = ["content-type", "application/json"] as const

export const generate = (rng: Prng, port: number): Hostile => {
  const host = ["host", `127.0.0.1:${port}`] as const
  const named1 = rng.pick(named)
  const nameTarget = (name: string) => Buffer.from(`${named1[1]}${name}`)
  const kind = rng.pick([
    "bad-name-path",
    "bad-name-path",
    "bad-name-body",
    "junk-body",
    "junk-body",
    "junk-body",
    "wrong-method",
    "wrong-content-type",
    "unknown-route",
    "raw-bytes-path",
    "huge-body",
    "long-header",
    "foreign-host"
  ])
  if (kind === "bad-name-path") {
    const body = named1[2] ? Buffer.from(JSON.stringify({ input_history: "[]", query: "x" })) : Buffer.alloc(0)
    return { kind, method: named1[0], target: nameTarget(rng.pick(badNames)), headers: [host, json], body }
  }
  if (kind === "bad-name-body") {
    const route = rng.pick([...bodied.slice(0, 4), "/internal/maintenance/run_once"])
    return { kind, method: "POST", target: Buffer.from(route), headers: [host, json], body: badNameBody(rng, route) }
  }
  if (kind === "junk-body") {
    const route = rng.pick([...named.filter((r) => r[2]).map((r) => `${r[1]}${KNOWN}`), ...bodied])
    const body = junkBody(rng, route.startsWith("/query_memory/"))
    return { kind, method: "POST", target: Buffer.from(route), headers: [host, json], body }
  }
  if (kind === "wrong-method") {
    const ofName = rng.next() < 0.6
    const route = ofName ? `${named1[1]}${KNOWN}` : rng.pick(plain)[1]
    const served = ofName ? [named1[0]] : [...plain, ...alsoGet].filter(([, p]) => p === route).map(([m]) => m)
    const methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"]
    const others = methods.filter((m) => !served.includes(m))
    return { kind, method: rng.pick(others), target: Buffer.from(route), headers: [host, json], body: Buffer.alloc(0) }
  }
  if (kind === "wrong-content-type") {
    const route = rng.pick(["/cache/", "/process/", "/renew/", "/settle/", "/query_memory/"]) + KNOWN
    const type = rng.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
    const body = Buffer.from(history([{ role: "user", content: "sent as " + type }]))
    return { kind, method: "POST", target: Buffer.from(route), headers: [host, ["content-type", type]], body }
  }
  if (kind === "unknown-route") {
    const path = rng.pick([
      "/index.html",
      "/admin",
      "/../../etc/passwd",
      "/cache",
      "/cache/",
      "/cache/Known/extra",
      "/%2e%2e/%2e%2e/etc/passwd",
      "/api/memory",
      "/.kioku.lock",
      `/${rng.bytes(8).toString("hex")}`
    ])
    return {
      kind,
      method: rng.pick(["GET", "POST"]),
      target: Buffer.from(path),
      headers: [host, json],
      body: Buffer.alloc(0)
    }
  }
  if (kind === "raw-bytes-path") {
    const raw = rng.bytes(rng.int(1, 40)).filter((b) => b !== 0x0a && b !== 0x0d && b !== 0x20 && b !== 0x3f)
    const at = rng.int(0, raw.length)
    const target = Buffer.concat([Buffer.from(named1[1]), raw.subarray(0, at), Buffer.from([0xff]), raw.subarray(at)])
    return { kind, method: named1[0], target, headers: [host, json], body: Buffer.from("{}") }
  }
  if (kind === "huge-body") {
    const over = rng.next() < 0.5
    const size = over ? 16 * MiB + rng.int(1, 4096) : 16 * MiB - rng.int(1, 4096)
    const text = `{"subjects": [], "input_history": "${"a".repeat(size - 37)}"}`
    const route = rng.pick(["/cache/", "/process/", "/query_memory/", "/settle/"]) + KNOWN
    return { kind, method: "POST", target: Buffer.from(route), headers: [host, json], body: Buffer.from(text) }
  }
  if (kind === "long-header") {
    const value = "v".repeat(rng.int(17, 200) * 1024)
    return {
      kind,
      method: "GET",
      target: Buffer.from("/health"),
      headers: [host, ["x-long", value]],
      body: Buffer.alloc(0)
    }
  }
  const foreign = ["evil.example", "127.0.0.1.nip.io", "localhost.evil", "[::2]", rng.bytes(6).toString("hex")]
  return {
    kind,
    method: "POST",
    target: Buffer.from(`/cache/${KNOWN}`),
    headers: [["host", rng.pick(foreign)], json],
    body: Buffer.from(history([{ role: "user", content: "from a foreign host" }]))
  }
}

const history = (messages: ReadonlyArray<unknown>) => JSON.stringify({ input_history: JSON.stringify(messages) })

/** Sends one request over a fresh socket and reads the answer (or fails after `timeoutMs`). */
export const send = (port: number, r: Hostile, timeoutMs: number) =>
  new Promise<Answer>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    const timer = setTimeout(() => {
      socket.destroy()
      reject(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    const finish = () => {
      clearTimeout(timer)
      const raw = Buffer.concat(chunks)
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(raw.subarray(0, 20).toString("latin1"))
      if (m === null) return reject(new Error(`no HTTP answer (${raw.length} bytes)`))
      const at = raw.indexOf("\r\n\r\n")
      const head = raw.subarray(0, at).toString("latin1").toLowerCase()
      const rest = raw.subarray(at + 4)
      resolve({
        status: Number(m[1]),
        body: head.includes("transfer-encoding: chunked") ? dechunk(rest) : rest.toString()
      })
    }
    socket.on("data", (c: Buffer) => chunks.push(c))
    socket.on("end", finish)
    socket.on("error", () => (chunks.length > 0 ? finish() : undefined))
    socket.on("close", () => (chunks.length > 0 ? finish() : reject(new Error("connection closed without an answer"))))
    const head = Buffer.concat([
      Buffer.from(`${r.method} `),
      r.target,
      Buffer.from(" HTTP/1.1\r\n"),
      ...r.headers.map(([k, v]) => Buffer.concat([Buffer.from(`${k}: `), Buffer.from(v), Buffer.from("\r\n")])),
      Buffer.from(`content-length: ${r.body.length}\r\nconnection: close\r\n\r\n`)
    ])
    socket.write(head)
    socket.end(r.body)
  })

const dechunk = (raw: Buffer): string => {
  const parts: Array<Buffer> = []
  let at = 0
  while (at < raw.length) {
    const eol = raw.indexOf("\r\n", at)
    const size = parseInt(raw.subarray(at, eol).toString(), 16)
    if (!(size > 0)) break
    parts.push(raw.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
  return Buffer.concat(parts).toString()
}
