/**
 * The mixed load of the SIGKILL test: one sequential client per character (so each character's
 * acknowledgements have an order), `/cache` on every character, `/process` only on the "mixed" half (the
 * other half is never compressed, so all of its turns must stay in recent.json), `/query_memory` and
 * `/new_dialog` on all, and now and then `/reflect` on the mixed half (reflections made from the facts the
 * outbox extracted, to check replays never duplicate them). A request is acknowledged when N.E.K.O.'s client would count it as success: a 2xx
 * JSON answer without `status: "error"`, here `cached` (count > 0) or `processed`.
 */
import { Either, Schema } from "effect"
import { history } from "../support/server.js"
import type { Prng } from "./profile.js"

export interface Ack {
  readonly character: string
  readonly route: "cache" | "process"
  readonly texts: ReadonlyArray<string>
}

export interface Tally {
  readonly sent: Record<string, number>
  readonly acked: Record<string, number>
  /** Answers that arrived but were neither a success nor a connection cut by the kill. */
  readonly wrong: Array<string>
  readonly acks: Array<Ack>
}

export const newTally = (): Tally => ({ sent: {}, acked: {}, wrong: [], acks: [] })

const WriteAnswer = Schema.parseJson(
  Schema.Union(
    Schema.Struct({ status: Schema.Literal("cached"), count: Schema.Number }),
    Schema.Struct({ status: Schema.Literal("processed") })
  )
)
const ReflectAnswer = Schema.parseJson(Schema.Struct({ reflection: Schema.Unknown }))
const decodeReflect = Schema.decodeUnknownEither(ReflectAnswer)
const RecallAnswer = Schema.parseJson(Schema.Struct({ results: Schema.Array(Schema.Unknown), query: Schema.String }))
const decodeWrite = Schema.decodeUnknownEither(WriteAnswer)
const decodeRecall = Schema.decodeUnknownEither(RecallAnswer)

const hobbies = ["pottery", "tennis", "jazz piano", "ramen", "hiking", "chess", "origami", "karaoke", "sushi"]

export const characterNames = (n: number) =>
  Array.from({ length: n }, (_, i) => (i % 5 === 4 ? `角色${i}` : `Chaos${String(i).padStart(2, "0")}`))
export const isMixed = (name: string, all: ReadonlyArray<string>) => all.indexOf(name) % 2 === 1

/** Drives one character until a request fails at the connection level (the kill) or `stop()` is true. */
export const drive = async (
  url: string,
  character: string,
  mixed: boolean,
  rng: Prng,
  tag: string,
  tally: Tally,
  stop: () => boolean
) => {
  const count = (key: Record<string, number>, route: string) => (key[route] = (key[route] ?? 0) + 1)
  const target = `${url}/ROUTE/${encodeURIComponent(character)}`
  for (let n = 0; !stop(); n++) {
    const roll = rng.next()
    const route =
      roll < 0.5
        ? "cache"
        : roll < 0.65 && mixed
          ? "process"
          : roll < 0.8
            ? "query_memory"
            : roll < 0.92 || !mixed
              ? "new_dialog"
              : "reflect"
    const at = target.replace("ROUTE", route)
    const token = `${character}-${tag}-${n}`
    count(tally.sent, route)
    try {
      if (route === "cache" || route === "process") {
        const texts = [`I love ${rng.pick(hobbies)} ${token}`, `Noted, ${token}`]
        const res = await fetch(at, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: history([
            { role: "user", content: texts[0] },
            { role: "assistant", content: texts[1] }
          ])
        })
        const text = await res.text()
        if (res.status === 200 && Either.isRight(decodeWrite(text))) {
          count(tally.acked, route)
          tally.acks.push({ character, route, texts })
        } else tally.wrong.push(`${route} ${res.status} ${text.slice(0, 200)}`)
      } else if (route === "query_memory") {
        const res = await fetch(at, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: `${rng.pick(hobbies)} ${character}` })
        })
        const text = await res.text()
        if (res.status === 200 && Either.isRight(decodeRecall(text))) count(tally.acked, route)
        else tally.wrong.push(`${route} ${res.status} ${text.slice(0, 200)}`)
      } else if (route === "reflect") {
        const res = await fetch(at, { method: "POST" })
        const text = await res.text()
        if (res.status === 200 && Either.isRight(decodeReflect(text))) count(tally.acked, route)
        else tally.wrong.push(`${route} ${res.status} ${text.slice(0, 200)}`)
      } else {
        const res = await fetch(at)
        await res.text()
        if (res.status === 200 && (res.headers.get("content-type") ?? "").startsWith("text/plain")) {
          count(tally.acked, route)
        } else tally.wrong.push(`${route} ${res.status}`)
      }
    } catch {
      return
    }
  }
}
