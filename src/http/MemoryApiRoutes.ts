/**
 * The memory browser's routes of N.E.K.O.'s main-server `/api/memory` (neko-compat §1.8, §1.10): the list of
 * `recent_<character>.json` files, one file's snapshot with its `fingerprint` and `identity_token`, the
 * optimistic-concurrency save (409 `RECENT_FILE_CONFLICT` with the current tokens when the snapshot is stale
 * or the tokens are missing; nothing is written on any rejection) and the character-memory rename. Bodies
 * and status codes follow N.E.K.O.; errors are `{"success":false,"error"}`.
 */
import { HttpServerRequest } from "@effect/platform"
import { Effect, Either, Option, Schema } from "effect"
import type { RecentSnapshot } from "../recent/RecentCommands.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import * as Browser from "../recent/BrowserEdit.js"
import { MemoryService, type MemoryError } from "../MemoryService.js"
import { json, wire } from "./Responses.js"
import { RecentFile, RecentSaved } from "../browser/Wire.js"
import { bodyText } from "./Routes.js"
import { api } from "../api/Api.js"
import { lenient } from "../api/Route.js"

const decodeSave = Schema.decodeUnknownOption(Schema.parseJson(lenient(api.saveRecentFile.body)))
const decodeRename = Schema.decodeUnknownOption(Schema.parseJson(lenient(api.updateCatgirlName.body)))
const FileQuery = api.recentFile.query

const failed = (error: string, status = 200) => json({ success: false, error }, status)

const tokensOf = (s: RecentSnapshot) => ({
  fingerprint: Browser.fingerprintOf(s.content),
  identity_token: Browser.identityTokenOf(s.pathKey, s.generation)
})

const conflict = (
  current: Option.Option<RecentSnapshot>,
  error = "近期记忆已在其他任务中更新，请重新加载并合并后再保存"
) =>
  json(
    {
      success: false,
      code: "RECENT_FILE_CONFLICT",
      error,
      ...Option.match(current, { onNone: () => ({ fingerprint: null, identity_token: null }), onSome: tokensOf })
    },
    409
  )

const storeFailure = (e: MemoryError, status = 200) =>
  failed(e._tag === "StoreError" ? `${e.op} failed` : e.message, status)

const isToken = (v: unknown) => v === undefined || v === null || typeof v === "string"

const saveRecent = Effect.gen(function* () {
  const memory = yield* MemoryService
  const body = decodeSave(yield* bodyText)
  if (Option.isNone(body)) return failed("请求体必须是 JSON 对象", 400)
  const { filename, chat, fingerprint, identity_token } = body.value
  const name = typeof filename === "string" ? Browser.characterOfFile(filename) : Either.left("文件名不合法")
  if (Either.isLeft(name)) return failed(name.left, 400)
  const items = Browser.validateChat(chat)
  if (Either.isLeft(items)) return failed(items.left, 400)
  if (!isToken(fingerprint)) return failed("文件快照指纹格式不合法", 400)
  if (!isToken(identity_token)) return failed("文件身份令牌格式不合法", 400)
  if (typeof fingerprint !== "string" || typeof identity_token !== "string") {
    const current = yield* Effect.either(memory.recentFile(name.right))
    return conflict(
      Either.getOrElse(current, () => Option.none()),
      "文件身份令牌缺失，请重新加载后再保存"
    )
  }
  const matches = (s: RecentSnapshot) => {
    const t = tokensOf(s)
    return t.fingerprint === fingerprint && t.identity_token === identity_token
  }
  const outcome = yield* Effect.either(memory.saveRecent(name.right, matches, items.right.map(Browser.langChainItem)))
  if (Either.isLeft(outcome)) return storeFailure(outcome.left)
  const result = outcome.right
  if (result._tag === "Conflict") return conflict(result.current)
  if (result._tag === "Unwritable") return failed(result.message)
  return wire(RecentSaved, {
    success: true,
    need_refresh: true,
    catgirl_name: name.right,
    ...tokensOf(result.snapshot)
  })
})

const renameCharacter = Effect.gen(function* () {
  const memory = yield* MemoryService
  const body = decodeRename(yield* bodyText)
  const oldName = Option.getOrUndefined(body)?.old_name
  const newName = Option.getOrUndefined(body)?.new_name
  if (typeof oldName !== "string" || typeof newName !== "string" || oldName === "" || newName === "")
    return failed("缺少必要参数", 400)
  const oldValid = validateCharacterName(oldName)
  if (Either.isLeft(oldValid)) return failed(`旧名称无效: ${oldValid.left.detail}`, 400)
  const newValid = validateCharacterName(newName)
  if (Either.isLeft(newValid)) return failed(`新名称无效: ${newValid.left.detail}`, 400)
  if (oldValid.right === newValid.right) return failed("新名称与旧名称相同", 400)
  const outcome = yield* Effect.either(memory.renameCharacter(oldValid.right, newValid.right))
  if (Either.isLeft(outcome)) {
    const e = outcome.left
    return e._tag === "CharacterBusy" ? failed("记忆正在写入且无法停止，请稍后重试", 409) : storeFailure(e)
  }
  switch (outcome.right) {
    case "renamed":
      return json({ success: true, memory_renamed: true, memory_server_reloaded: true })
    case "already_renamed":
      return json({ success: true, changed: false, exists_after: true, already_renamed: true })
    case "both_exist":
      return failed("新名称的记忆已存在，旧记忆仍在，请通过角色管理接口修复", 409)
    case "not_found":
      return failed("character not found", 404)
  }
})

export const memoryApiHandlers = {
  recentFiles: Effect.flatMap(MemoryService, (m) => m.recentFiles).pipe(
    Effect.map((names) => json({ files: names.map(Browser.fileNameOf) })),
    Effect.catchAll((e) => Effect.succeed(failed(e.message, 500)))
  ),
  recentFile: Effect.gen(function* () {
    const memory = yield* MemoryService
    const query = yield* HttpServerRequest.schemaSearchParams(FileQuery).pipe(
      Effect.orElseSucceed(() => ({ filename: undefined }))
    )
    const name = Browser.characterOfFile(query.filename ?? "")
    if (Either.isLeft(name)) return failed(name.left, 400)
    const snapshot = yield* Effect.either(memory.recentFile(name.right))
    if (Either.isLeft(snapshot)) return storeFailure(snapshot.left, 500)
    return Option.match(snapshot.right, {
      onNone: () => failed("文件不存在", 404),
      onSome: (s) => wire(RecentFile, { content: s.content, ...tokensOf(s) })
    })
  }),
  saveRecentFile: saveRecent.pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response))),
  updateCatgirlName: renameCharacter.pipe(Effect.catchTag("BodyRejected", (e) => Effect.succeed(e.response)))
}
