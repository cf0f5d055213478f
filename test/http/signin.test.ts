import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import { seed } from "../support/browserSeed.js"
import { serverSuite, type RunningServer } from "../support/server.js"

const TOKEN = "s3cret-token-0123456789"
const FACT = "fact_20261101090000_aaaa0002"

interface Answer {
  readonly status: number
  readonly text: string
  readonly location: string | null
  readonly cookies: ReadonlyArray<string>
}

const call = async (url: string, init: RequestInit = {}): Promise<Answer> => {
  const res = await fetch(url, { redirect: "manual", ...init })
  return {
    status: res.status,
    text: await res.text(),
    location: res.headers.get("location"),
    cookies: res.headers.getSetCookie()
  }
}

const signInForm = (server: RunningServer, token: string, headers: Record<string, string> = {}, next = "/") =>
  call(`${server.url}/session`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, ...headers },
    body: new URLSearchParams({ token, next }).toString()
  })

/** The `name=value` pair of the session cookie a sign-in set. */
const sessionOf = (answer: Answer): string => {
  const cookie = answer.cookies.find((c) => c.startsWith("kioku_session_"))
  assert.isDefined(cookie, `no session cookie in ${JSON.stringify(answer.cookies)}`)
  return (cookie ?? "").split(";")[0] ?? ""
}

const edit = (server: RunningServer, text: string, headers: Record<string, string>) =>
  call(`${server.url}/api/memory/entry_edit`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ lanlan_name: "Tian", kind: "fact", id: FACT, text })
  })

describe("signing in to the pages with the auth token", () => {
  const { temp, start } = serverSuite()
  const startProtected = () => {
    seed(path.join(temp.memory, "Tian"))
    return start(temp.memory, ["--auth-token", TOKEN])
  }
  const factsOnDisk = () => readFileSync(path.join(temp.memory, "Tian", "facts.json"), "utf8")

  it("without a session: `/` is the sign-in form, the pages redirect to it, the API answers 401", async () => {
    const server = await startProtected()
    const home = await call(`${server.url}/`)
    assert.strictEqual(home.status, 200)
    assert.include(home.text, '<form class="card" method="post" action="/session">')
    assert.include(home.text, 'name="token" type="password"')
    assert.notInclude(home.text, "Characters (")
    const page = await call(`${server.url}/memory_browser?character=Tian`)
    assert.strictEqual(page.status, 303)
    assert.strictEqual(page.location, "/?next=%2Fmemory_browser%3Fcharacter%3DTian")
    const form = await call(`${server.url}${page.location}`)
    assert.include(form.text, 'name="next" value="/memory_browser?character=Tian"')
    assert.include((await call(`${server.url}/?next=//evil.example/`)).text, 'name="next" value="/"')
    assert.strictEqual((await call(`${server.url}/statecharts`)).status, 303)
    const api = await call(`${server.url}/api/memory/browser/Tian`)
    assert.strictEqual(api.status, 401)
    assert.strictEqual(JSON.parse(api.text).detail, "Unauthorized")
    assert.strictEqual((await call(`${server.url}/health`)).status, 401)
  })

  it("a wrong token: the form again with an error, 401 and no cookie; a malformed body is a 400", async () => {
    const server = await startProtected()
    const wrong = await signInForm(server, `${TOKEN}x`)
    assert.strictEqual(wrong.status, 401)
    assert.include(wrong.text, "That token is not right.")
    assert.deepStrictEqual(wrong.cookies, [])
    const json = await call(`${server.url}/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: "" })
    })
    assert.strictEqual(json.status, 401)
    assert.deepStrictEqual(json.cookies, [])
    const malformed = await call(`${server.url}/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ secret: TOKEN })
    })
    assert.strictEqual(malformed.status, 400)
    assert.deepStrictEqual(malformed.cookies, [])
  })

  it("the right token sets an HttpOnly, SameSite=Strict cookie with a random id that opens the pages and the API", async () => {
    const server = await startProtected()
    const answer = await signInForm(server, TOKEN, {}, "/memory_browser?character=Tian")
    assert.strictEqual(answer.status, 303)
    assert.strictEqual(answer.location, "/memory_browser?character=Tian")
    assert.strictEqual(answer.cookies.length, 1)
    const setCookie = answer.cookies[0] ?? ""
    assert.match(setCookie, new RegExp(`^kioku_session_${server.port}=[A-Za-z0-9_-]{43}; Max-Age=43200;`))
    for (const attribute of ["; Path=/", "; HttpOnly", "; SameSite=Strict"]) assert.include(setCookie, attribute)
    assert.notInclude(setCookie, "Secure")
    assert.notInclude(setCookie, TOKEN)
    const cookie = sessionOf(answer)
    assert.notStrictEqual(sessionOf(await signInForm(server, TOKEN)), cookie)

    const api = await call(`${server.url}/api/memory/browser/Tian`, { headers: { cookie } })
    assert.strictEqual(api.status, 200)
    assert.strictEqual(JSON.parse(api.text).name, "Tian")
    assert.strictEqual((await call(`${server.url}/memory_browser`, { headers: { cookie } })).status, 200)
    const home = await call(`${server.url}/`, { headers: { cookie } })
    assert.include(home.text, "Characters (1)")
    assert.include(home.text, 'action="/session/end"')
    assert.include(home.text, `curl -s -H "Authorization: Bearer $KIOKU_TOKEN" ${server.url}/new_dialog/Tian`)
    const forged = cookie.replace(/=.*/, `=${"A".repeat(43)}`)
    assert.strictEqual(
      (await call(`${server.url}/api/memory/browser/Tian`, { headers: { cookie: forged } })).status,
      401
    )

    const viaJson = await call(`${server.url}/session`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ token: TOKEN })
    })
    assert.strictEqual(viaJson.status, 200)
    assert.deepStrictEqual(JSON.parse(viaJson.text), { signed_in: true, expires_in_seconds: 43200 })
    assert.include(viaJson.cookies[0] ?? "", "; HttpOnly")
  })

  it("a session cookie never admits a request from another origin; from its own it edits", async () => {
    const server = await startProtected()
    const cookie = sessionOf(await signInForm(server, TOKEN))
    const before = factsOnDisk()
    assert.strictEqual((await edit(server, "forged", { cookie, origin: "http://evil.example" })).status, 403)
    assert.strictEqual((await edit(server, "forged", { cookie, referer: "http://evil.example/x" })).status, 403)
    assert.strictEqual((await edit(server, "forged", { cookie })).status, 403)
    assert.strictEqual((await edit(server, "forged", { cookie, origin: "null" })).status, 403)
    const foreignRead = await call(`${server.url}/api/memory/browser/Tian`, {
      headers: { cookie, origin: "http://evil.example" }
    })
    assert.strictEqual(foreignRead.status, 403)
    assert.strictEqual(factsOnDisk(), before)
    const foreignSignIn = await signInForm(server, TOKEN, { origin: "http://evil.example" })
    assert.strictEqual(foreignSignIn.status, 403)
    assert.deepStrictEqual(foreignSignIn.cookies, [])

    const own = await edit(server, "Tian moved to Kyoto in 2025", { cookie, origin: server.url })
    assert.strictEqual(own.status, 200)
    assert.include(factsOnDisk(), "Tian moved to Kyoto in 2025")
    const byReferer = await edit(server, "Tian moved to Kyoto", { cookie, referer: `${server.url}/memory_browser` })
    assert.strictEqual(byReferer.status, 200)
  })

  it("the bearer token works as before, with no cookie and any origin; a https proxy gets a Secure cookie", async () => {
    const server = await startProtected()
    const bearer = { authorization: `Bearer ${TOKEN}` }
    assert.strictEqual((await call(`${server.url}/api/memory/browser/Tian`, { headers: bearer })).status, 200)
    assert.strictEqual((await call(`${server.url}/health`, { headers: bearer })).status, 200)
    assert.strictEqual(
      (await edit(server, "Tian moved to Kyoto", { ...bearer, origin: "http://x.example" })).status,
      200
    )
    const wrongBearer = { authorization: `Bearer ${TOKEN.slice(0, -1)}` }
    assert.strictEqual((await call(`${server.url}/api/memory/browser/Tian`, { headers: wrongBearer })).status, 401)
    const proxied = await signInForm(server, TOKEN, { "x-forwarded-proto": "https" })
    assert.include(proxied.cookies[0] ?? "", "; Secure")
  })

  it("signing out ends the session and clears the cookie", async () => {
    const server = await startProtected()
    const cookie = sessionOf(await signInForm(server, TOKEN))
    const out = await call(`${server.url}/session/end`, { method: "POST", headers: { cookie, origin: server.url } })
    assert.strictEqual(out.status, 303)
    assert.strictEqual(out.location, "/")
    assert.match(out.cookies[0] ?? "", new RegExp(`^kioku_session_${server.port}=; Max-Age=0;`))
    assert.strictEqual((await call(`${server.url}/api/memory/browser/Tian`, { headers: { cookie } })).status, 401)
  })

  it("without a token nothing changes: `/` is the landing page and there is no /session", async () => {
    const server = await start(temp.memory)
    const home = await call(`${server.url}/`)
    assert.include(home.text, "Characters (")
    assert.notInclude(home.text, 'action="/session')
    assert.strictEqual((await signInForm(server, TOKEN)).status, 404)
  })
})
