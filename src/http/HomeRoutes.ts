/**
 * `GET /`: the landing page (src/browser/Home.ts) with the runtime's phase and the character directories. It is
 * served in limited mode too, so a user sees why the other routes wait. A browser signed in with a session
 * (SignIn.ts) gets a sign-out button.
 */
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { Effect, FiberRef, Ref } from "effect"
import { homePage } from "../browser/Home.js"
import { KiokuConfig } from "../Config.js"
import { RuntimeStatus } from "../RuntimeStatus.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import { VERSION } from "../Version.js"
import { viaSession } from "./SignIn.js"

export const homeRouter = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/",
    Effect.gen(function* () {
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
  )
)
