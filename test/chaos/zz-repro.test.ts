import { it } from "@effect/vitest"
import { makeTempRoot, startServer } from "../support/server.js"
import { send } from "./hostile.js"
it("repro", async () => {
  const temp = makeTempRoot()
  const s = await startServer(temp.memory)
  const host = ["host", `127.0.0.1:${s.port}`] as const
  const json = ["content-type", "application/json"] as const
  const bodies: Record<string, Buffer> = {
    deepArr: Buffer.from("[".repeat(200000) + "]".repeat(200000)),
    deepIH: Buffer.from(JSON.stringify({ input_history: "[".repeat(100000) + "]".repeat(100000) })),
    deepObj: Buffer.from('{"a":'.repeat(100000) + "1" + "}".repeat(100000)),
    bigIH: Buffer.from(JSON.stringify({ input_history: "x".repeat(3 * 1024 * 1024) }))
  }
  for (const [k, b] of Object.entries(bodies)) {
    const a = await send(
      s.port,
      { kind: k, method: "POST", target: Buffer.from("/cache/Known"), headers: [host, json], body: b },
      15000
    )
    console.log(k, a.status, a.body.slice(0, 300))
  }
  for (const t of ["text/plain", "multipart/form-data; boundary=x", "application/x-www-form-urlencoded"]) {
    const a = await send(
      s.port,
      {
        kind: t,
        method: "POST",
        target: Buffer.from("/process/Known"),
        headers: [host, ["content-type", t]],
        body: Buffer.from('{"input_history":"[]"}')
      },
      15000
    ).catch((e) => ({ status: 0, body: String(e) }))
    console.log(t, a.status, a.body.slice(0, 300))
  }
  await s.stop()
  console.log(
    s
      .output()
      .split("\n")
      .filter((l) => !l.includes("DEBUG"))
      .join("\n")
      .slice(-3000)
  )
})
