/**
 * Response bodies in N.E.K.O.'s conventions: FastAPI-style `{"detail": …}` for 4xx, HTTP 200 with
 * `{"status":"error"}` for failed memory operations, the 409 limited-mode body.
 */
import { HttpServerResponse } from "@effect/platform"
import { Effect, type Schema } from "effect"

export const json = (body: unknown, status = 200) => HttpServerResponse.unsafeJson(body, { status })

/** A JSON body checked at compile time against the browser/Wire.ts schema the pages decode it with. */
export const wire = <A, I>(_schema: Schema.Schema<A, I>, body: NoInfer<I>, status = 200) => json(body, status)

export const detail = (status: number, message: string) => json({ detail: message }, status)

export const validation = (loc: ReadonlyArray<string>, msg: string, type: string) =>
  json({ detail: [{ type, loc, msg }] }, 422)

export const limited = (reason: string) =>
  json(
    {
      ok: false,
      error_code: "storage_startup_blocked",
      blocking_reason: reason,
      limited_mode: true,
      error: "Memory server 正处于存储受限启动状态，请等待存储位置选择、迁移或恢复完成。"
    },
    409
  )

export const operationFailed = (message: string) => json({ status: "error", message })

/** A defect in a handler: logged, answered 500 without details. */
export const orInternalError = <A, E, R>(handler: Effect.Effect<A, E, R>) =>
  Effect.catchAllCause(handler, (cause) =>
    Effect.logError("request failed", cause).pipe(Effect.as(detail(500, "Internal Server Error")))
  )
