/**
 * The prompt-locale commands of a character actor (`GET|PUT /prompt-locale/{name}`, neko-compat §1.6): read the
 * durable prompt language with its write order, or set it (the character's directory is created if needed).
 */
import { Deferred, Effect, Option } from "effect"
import * as State from "../CharacterState.js"
import type { Command } from "../Commands.js"
import * as PromptLocale from "./PromptLocale.js"

/** Handles the locale commands; false for any other command. */
export const handle = (state: State.CharacterState, c: Command) =>
  Effect.gen(function* () {
    if (c._tag === "GetPromptLocale") {
      yield* Deferred.complete(c.reply, PromptLocale.stateOf(state.dir))
      return true
    }
    if (c._tag === "SetPromptLocale") {
      const work = Effect.gen(function* () {
        yield* state.ensureDir
        const change = yield* PromptLocale.write(state.dir, c.language)
        state.locale = Option.some(c.language)
        return change
      })
      yield* Deferred.complete(c.reply, work)
      return true
    }
    return false
  })
