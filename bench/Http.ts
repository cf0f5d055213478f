/** Loopback HTTP for the benchmarks: one request over a keep-alive agent, and percentiles of sorted samples. */
import { type Agent, request } from "node:http"

export interface Answer {
  readonly status: number
  readonly text: string
}

export const send = (agent: Agent, port: number, method: string, pathName: string, body?: string) =>
  new Promise<Answer>((resolve, reject) => {
    const headers = body === undefined ? {} : { "content-type": "application/json" }
    const req = request({ host: "127.0.0.1", port, method, path: pathName, agent, headers }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }))
    })
    req.on("error", reject)
    req.end(body)
  })

/** POSTs a JSON body; answers the body text, fails on any status but 200. */
export const postOk = (agent: Agent, port: number, pathName: string, body: string) =>
  send(agent, port, "POST", pathName, body).then(({ status, text }) =>
    status === 200 ? text : Promise.reject(new Error(`status ${status}`))
  )

export const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0
