/**
 * The pages that describe the server: `GET /openapi.json` (the route table's OpenAPI document, api/OpenApi.ts),
 * `GET /docs` (that document as HTML, browser/Docs.ts) and `GET /`: the landing page (src/browser/Home.ts) with the runtime's phase and the character directories. It is
 * served in limited mode too, so a user sees why the other routes wait. A browser signed in with a session
 * (SignIn.ts) gets a sign-out button.
 */
import { HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef, Ref } from "effect"
import { openApiDocument } from "../api/OpenApi.js"
import { docsPage } from "../browser/Docs.js"
import { homePage } from "../browser/Home.js"
import { json } from "./Responses.js"
import { KiokuConfig } from "../Config.js"
import { RuntimeStatus } from "../RuntimeStatus.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import { VERSION } from "../Version.js"
import { viaSession } from "./SignIn.js"

let built: Readonly<Record<string, unknown>> | undefined
/** The OpenAPI document, built on first use (it describes the route table, which does not change). */
const document = () => (built ??= openApiDocument(VERSION))

export const homeHandlers = {
  openapi: Effect.sync(() => json(document())),
  docs: Effect.sync(() => HttpServerResponse.html(docsPage(document()))),
  home: Effect.gen(function* () {
    const { dataDir } = yield* KiokuConfig
    const phase = yield* Ref.get(yield* RuntimeStatus)
    const characters = yield* CharacterDirs.list(dataDir).pipe(Effect.orElseSucceed(() => []))
    const request = yield* HttpServerRequest.HttpServerRequest
    const host = request.headers["host"] ?? "127.0.0.1:48912"
    const signedIn = yield* FiberRef.get(viaSession)
    return HttpServerResponse.html(
      homePage({
        version: VERSION,
        phase: phase._tag,
        characters,
        origin: `http://${host}`,
        signedIn,
        tokenRequired: signedIn || request.headers["authorization"] !== undefined
      })
    )
  })
}
