/**
 * `GET /assets/{file}`: the pages' bundled scripts (see browser/Assets.ts) with their content type; only
 * the known files are served, and a missing or unreadable build is a 404.
 */
import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { readFile } from "node:fs/promises"
import * as path from "node:path"
import { assetDir, isAssetFile } from "../browser/Assets.js"
import { detail } from "./Responses.js"

export const assetHandlers = {
  asset: Effect.gen(function* () {
    const file = (yield* HttpRouter.params)["file"] ?? ""
    const dir = assetDir()
    if (!isAssetFile(file) || dir === undefined) return detail(404, "Not Found")
    const bytes = yield* Effect.tryPromise(() => readFile(path.join(dir, file)))
    return HttpServerResponse.uint8Array(bytes, {
      contentType: "text/javascript; charset=utf-8",
      headers: { "cache-control": "no-cache", "x-content-type-options": "nosniff" }
    })
  }).pipe(
    Effect.catchTag("UnknownException", () =>
      Effect.logWarning("page asset unreadable").pipe(Effect.as(detail(404, "Not Found")))
    )
  )
}
