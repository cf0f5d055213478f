/**
 * A character actor's read side: the speakers (master name from characters.json, else the tunable), the
 * language of a read (explicit request > the character's prompt locale > render fallback > default) and of
 * background work (what the user wrote), the gap since the last turn, and `/new_dialog` rendering.
 */
import { Clock, Effect, Option } from "effect"
import type { CharacterName } from "../domain/CharacterName.js"
import { detectLanguage, normaliseLanguage, type Language } from "../domain/Locale.js"
import { parseLocal } from "../domain/LocalTime.js"
import { isHuman, messageText, type StoredMessage } from "../domain/Message.js"
import { renderNewDialog } from "../dialog/Render.js"
import type { AppFiles } from "../store/AppFiles.js"
import type { Tunables } from "../Tunables.js"
import * as State from "./CharacterState.js"
import type { CharacterHost } from "../runtime/CharacterHost.js"
import type { ReadLanguage } from "./Commands.js"

export const makeReads = (deps: {
  readonly name: CharacterName
  readonly tunables: Tunables
  readonly files: typeof AppFiles.Service
}) => {
  const { name, files } = deps
  const t = deps.tunables
  const resolveLanguage = (state: CharacterHost, lang: ReadLanguage): Language =>
    Option.getOrElse(
      Option.orElse(
        Option.orElse(lang.language, () => state.locale),
        () => lang.renderLanguage
      ),
      () => normaliseLanguage(t.default_language) ?? "en"
    )

  const speakers = files.characters.pipe(
    Effect.map((c) => ({
      directory: c,
      speakers: { character: name, master: Option.getOrElse(c.masterName, () => t.master_name) }
    }))
  )
  /** The prompt language for background work on `items`: what the user wrote, else the character's. */
  const contentLanguage = (state: CharacterHost, items: ReadonlyArray<StoredMessage>) =>
    detectLanguage(
      items.filter(isHuman).map(messageText),
      resolveLanguage(state, { language: Option.none(), renderLanguage: Option.none() })
    )
  const gapSeconds = (state: State.CharacterState) =>
    Effect.gen(function* () {
      const ti = yield* state.openTimeIndex(false)
      if (Option.isNone(ti)) return undefined
      const last = yield* ti.value.lastTimestamp
      const at = last === null ? undefined : parseLocal(last)
      if (at === undefined) return undefined
      return ((yield* Clock.currentTimeMillis) - at) / 1000
    })

  const renderDialog = <E>(
    state: State.CharacterState,
    lang: ReadLanguage,
    personaBlock: (state: State.CharacterState, lang: Language) => Effect.Effect<string, E>
  ) =>
    Effect.gen(function* () {
      const { directory, speakers: s } = yield* speakers
      if (!state.exists() && !directory.characters.includes(name)) return ""
      const recent = yield* state.recent.read
      const language = resolveLanguage(state, lang)
      return renderNewDialog({
        speakers: s,
        language,
        nowMillis: yield* Clock.currentTimeMillis,
        recent: recent.items,
        gapSeconds: yield* gapSeconds(state),
        persona: yield* personaBlock(state, language)
      })
    })

  return { speakers, resolveLanguage, contentLanguage, gapSeconds, renderDialog }
}
