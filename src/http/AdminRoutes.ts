/**
 * Configuration and maintenance routes: the powerful-memory and auto-review switches in N.E.K.O.'s
 * `/api/memory` shape (switching powerful memory off first resets `confirmed_at` everywhere; if that fails
 * the switch is not saved) and the `confirmed_at` reset itself.
 */
import { Effect, Option, Schema } from "effect"
import { MemoryService } from "../MemoryService.js"
import { AppFiles } from "../store/AppFiles.js"
import { json } from "./Responses.js"
import { api } from "../api/Api.js"
import { bodyText } from "./Routes.js"

const decodeEnabled = Schema.decodeUnknownOption(Schema.parseJson(api.setPowerfulMemoryConfig.body))

export const adminHandlers = {
  resetConfirmedAt: Effect.gen(function* () {
    const memory = yield* MemoryService
    return yield* memory.resetConfirmedAt.pipe(
      Effect.map((count) => json({ ok: true, count })),
      Effect.catchAll((e) => Effect.succeed(json({ ok: false, error: e._tag, count: 0 })))
    )
  }),
  getPowerfulMemoryConfig: Effect.map(
    Effect.flatMap(AppFiles, (f) => f.core),
    (c) => json({ enabled: c.powerful_memory_enabled })
  ),
  setPowerfulMemoryConfig: Effect.gen(function* () {
    const body = decodeEnabled(yield* bodyText.pipe(Effect.orElseSucceed(() => "")))
    if (Option.isNone(body)) return json({ success: false, error: "enabled must be a boolean" }, 400)
    const files = yield* AppFiles
    const previous = (yield* files.core).powerful_memory_enabled
    if (previous && !body.value.enabled) {
      const reset = yield* Effect.either((yield* MemoryService).resetConfirmedAt)
      if (reset._tag === "Left") return json({ success: false, error: `migration failed: ${reset.left._tag}` })
    }
    const saved = yield* Effect.either(files.setCore({ powerful_memory_enabled: body.value.enabled }))
    if (saved._tag === "Left") return json({ success: false, error: saved.left.message })
    return json({ success: true, enabled: body.value.enabled })
  }),
  getReviewConfig: Effect.map(
    Effect.flatMap(AppFiles, (f) => f.core),
    (c) => json({ enabled: c.recent_memory_auto_review })
  ),
  setReviewConfig: Effect.gen(function* () {
    const body = decodeEnabled(yield* bodyText.pipe(Effect.orElseSucceed(() => "")))
    if (Option.isNone(body)) return json({ success: false, error: "enabled must be a boolean" }, 400)
    const saved = yield* Effect.either((yield* AppFiles).setCore({ recent_memory_auto_review: body.value.enabled }))
    if (saved._tag === "Left") return json({ success: false, error: saved.left.message })
    return json({ success: true, enabled: body.value.enabled })
  })
}
