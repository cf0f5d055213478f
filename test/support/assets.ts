/**
 * Checks that a page loads only kioku's own assets: every `src`/`href` of a script or stylesheet is a
 * same-origin `/assets/` path that answers 200 with a JavaScript content type.
 */
import { assert } from "@effect/vitest"
import { get } from "./server.js"

export const assertOwnScripts = async (base: string, html: string, expected: ReadonlyArray<string>) => {
  const refs = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="([^"]*)"/g)].map((m) => m[1] ?? "")
  assert.deepStrictEqual(refs, expected)
  for (const ref of refs) {
    const asset = await get(`${base}${ref}`)
    assert.strictEqual(asset.status, 200, ref)
    assert.match(asset.type, /^text\/javascript; charset=utf-8$/)
    assert.isAbove(asset.text.length, 1000)
  }
}
