/**
 * The embedded backend of `kioku mcp`: the memory operations of the runtime this process runs on the memory
 * root (it holds the root lock), each one command to the character's actor as the HTTP routes send it. The
 * facts are read from the character's files as the memory browser reads them (reads never race the actor).
 */
import { Clock, Effect, Layer, Option } from "effect"
import { snapshot } from "../browser/Snapshot.js"
import { storedCode } from "../character/locale/PromptLocale.js"
import { KiokuConfig } from "../Config.js"
import { validateCharacterName } from "../domain/CharacterName.js"
import { MemoryService } from "../MemoryService.js"
import * as CharacterDirs from "../store/CharacterDirs.js"
import { characterDir } from "../statecharts/Live.js"
import { McpBackend, McpBackendError, type Backend, type ForgetOutcome } from "./Backend.js"

const failed = (e: { readonly _tag: string; readonly message: string }) =>
  new McpBackendError({
    message: e._tag === "StoreError" ? "the memory files could not be read or written" : e.message
  })

export const make = Effect.gen(function* () {
  const memory = yield* MemoryService
  const { dataDir, tunables } = yield* KiokuConfig
  const backend: Backend = {
    mode: { _tag: "embedded" },
    remember: (name, turns, language) =>
      memory.write("cache", name, { messages: turns, language }).pipe(Effect.mapError(failed)),
    maintainNow: (name) =>
      memory.maintainNow(name).pipe(
        Effect.map((r) => r.factsAdded),
        Effect.mapError(failed)
      ),
    recallText: (name, input) => memory.recallText(name, input).pipe(Effect.mapError(failed)),
    context: (name, language) => memory.newDialog(name, { language }).pipe(Effect.mapError(failed)),
    characters: CharacterDirs.list(dataDir).pipe(Effect.mapError(failed)),
    forget: (name, kind, id) =>
      memory.manualAction(name, { kind, id, action: "forget" }).pipe(
        Effect.map((r): ForgetOutcome => (r._tag === "Changed" ? { _tag: "Forgotten", status: r.status } : r)),
        Effect.mapError(failed)
      ),
    persona: (name) => memory.persona(name).pipe(Effect.mapError(failed)),
    facts: (raw) =>
      Effect.gen(function* () {
        const name = yield* validateCharacterName(raw)
        const view = yield* snapshot(characterDir(dataDir, name), tunables, yield* Clock.currentTimeMillis)
        return view.facts
      }).pipe(Effect.mapError(failed)),
    promptLanguage: (name) =>
      memory.promptLocale(name).pipe(
        Effect.map((s) => Option.map(s.language, storedCode)),
        Effect.mapError(failed)
      )
  }
  return backend
})

export const layer = Layer.effect(McpBackend, make)
