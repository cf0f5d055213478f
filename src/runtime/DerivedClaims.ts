/**
 * Admission of a character's derived background work (the recent-history review) around N.E.K.O.'s character
 * lifecycle (neko-compat §1.2): `/release_character` retires a name under a claim token before the main server
 * renames or deletes it, and `/reload` releases those claims or resumes the name once the new identity is
 * published. While a name has claims (or is held until publication) no review starts for it. A token that was
 * released is remembered (the newest 4096), so a late `/release_character` with it answers 409.
 */
import { Context, Effect, Layer } from "effect"

interface Claim {
  readonly hold: boolean
  readonly generation: number
}

export type ClaimOutcome = "claimed" | "withdrawn"

export interface ReloadClaims {
  readonly resumeNames: ReadonlyArray<string>
  readonly resumeGenerations: Readonly<Record<string, number>>
  readonly releaseClaims: Readonly<Record<string, ReadonlyArray<string>>>
}

const REMEMBERED_RELEASES = 4096

export class DerivedClaims extends Context.Tag("app/runtime/DerivedClaims")<
  DerivedClaims,
  {
    readonly claim: (name: string, token: string, generation: number, hold: boolean) => Effect.Effect<ClaimOutcome>
    readonly release: (name: string, token: string) => Effect.Effect<void>
    readonly reload: (active: ReadonlyArray<string>, input: ReloadClaims) => Effect.Effect<void>
    readonly retired: (name: string) => Effect.Effect<boolean>
  }
>() {
  static readonly layer = Layer.sync(DerivedClaims, () => {
    const claims = new Map<string, Map<string, Claim>>()
    const retired = new Set<string>()
    const held = new Set<string>()
    const released = new Set<string>()
    const key = (name: string, token: string) => JSON.stringify([name, token])

    const recompute = (name: string) => {
      const mine = claims.get(name)
      if (mine !== undefined && mine.size > 0) {
        retired.add(name)
        if ([...mine.values()].some((c) => c.hold)) held.add(name)
        else held.delete(name)
        return
      }
      claims.delete(name)
      held.delete(name)
      retired.delete(name)
    }
    const forget = (name: string, token: string) => {
      const k = key(name, token)
      released.delete(k)
      released.add(k)
      while (released.size > REMEMBERED_RELEASES) released.delete(released.values().next().value ?? k)
      claims.get(name)?.delete(token)
      recompute(name)
    }
    /** Keeps only the claims taken under `generation` (none when no generation is known). */
    const resume = (name: string, generation: number | undefined) => {
      const mine = claims.get(name)
      if (mine !== undefined)
        for (const [t, c] of mine) if (generation === undefined || c.generation !== generation) mine.delete(t)
      recompute(name)
    }

    return {
      claim: (name, token, generation, hold) =>
        Effect.sync(() => {
          if (released.has(key(name, token))) return "withdrawn" as const
          const mine = claims.get(name) ?? new Map<string, Claim>()
          const previous = mine.get(token)
          mine.set(token, { hold: (previous?.hold ?? false) || hold, generation: previous?.generation ?? generation })
          claims.set(name, mine)
          retired.add(name)
          if (hold) held.add(name)
          return "claimed" as const
        }),
      release: (name, token) => Effect.sync(() => forget(name, token)),
      reload: (active, input) =>
        Effect.sync(() => {
          for (const [name, tokens] of Object.entries(input.releaseClaims)) for (const t of tokens) forget(name, t)
          const resumed = new Set(input.resumeNames)
          for (const name of active) {
            if (!retired.has(name)) continue
            if (resumed.has(name)) resume(name, input.resumeGenerations[name])
            else if ((claims.get(name)?.size ?? 0) === 0 && !held.has(name)) retired.delete(name)
          }
        }),
      retired: (name) => Effect.sync(() => retired.has(name))
    }
  })
}
