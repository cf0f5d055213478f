/**
 * Reads a request body with a byte limit without destroying the socket, so an oversized body still gets
 * its 413 answer (the connection is closed after it). Invalid UTF-8 decodes with replacement characters.
 */
import { HttpServerRequest } from "@effect/platform"
import { NodeHttpServerRequest } from "@effect/platform-node"
import { Effect, Either } from "effect"
import { StringDecoder } from "node:string_decoder"

export type BodyProblem = "too_large" | "unreadable"

export const readBody = (maxBytes: number) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    Effect.async<Either.Either<string, BodyProblem>>((resume) => {
      const incoming = NodeHttpServerRequest.toIncomingMessage(request)
      const decoder = new StringDecoder("utf8")
      let text = ""
      let bytes = 0
      const finish = (result: Either.Either<string, BodyProblem>) => {
        incoming.off("data", onData)
        incoming.off("end", onEnd)
        incoming.off("error", onError)
        resume(Effect.succeed(result))
      }
      const onData = (chunk: Buffer) => {
        bytes += chunk.length
        if (bytes > maxBytes) {
          incoming.pause()
          finish(Either.left("too_large"))
        } else text += decoder.write(chunk)
      }
      const onEnd = () => finish(Either.right(text + decoder.end()))
      const onError = () => finish(Either.left("unreadable"))
      if (incoming.readableEnded) return resume(Effect.succeed(Either.right("")))
      incoming.on("data", onData)
      incoming.on("end", onEnd)
      incoming.on("error", onError)
    })
  )
