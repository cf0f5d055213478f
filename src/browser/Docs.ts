/**
 * The `/docs` page: the OpenAPI document (api/OpenApi.ts) as HTML — per tag, each operation with its method,
 * path, summary, the client method that calls it, its parameters, body and answers, every schema sketched as
 * a TypeScript-like type. Server-rendered with the landing page's inline CSS and no script, so it works
 * offline; every text is escaped.
 */
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { css, escape } from "./Home.js"

const Media = Schema.Record({ key: Schema.String, value: Schema.Struct({ schema: Schema.Unknown }) })
const Operation = Schema.Struct({
  operationId: Schema.String,
  summary: Schema.String,
  tags: Schema.Array(Schema.String),
  parameters: Schema.Array(
    Schema.Struct({ name: Schema.String, in: Schema.String, required: Schema.Boolean, schema: Schema.Unknown })
  ),
  requestBody: Schema.optional(Schema.Struct({ required: Schema.Boolean, content: Media })),
  responses: Schema.Record({
    key: Schema.String,
    value: Schema.Struct({ description: Schema.String, content: Schema.optional(Media) })
  })
})
const Document = Schema.Struct({
  info: Schema.Struct({ title: Schema.String, version: Schema.String, description: Schema.String }),
  tags: Schema.Array(Schema.Struct({ name: Schema.String, description: Schema.String })),
  paths: Schema.Record({ key: Schema.String, value: Schema.Record({ key: Schema.String, value: Operation }) })
})
type Operation = typeof Operation.Type

const Sketchable = Schema.Struct({
  type: Schema.optional(Schema.Union(Schema.String, Schema.Array(Schema.String))),
  $ref: Schema.optional(Schema.String),
  enum: Schema.optional(Schema.Array(Schema.Unknown)),
  anyOf: Schema.optional(Schema.Array(Schema.Unknown)),
  items: Schema.optional(Schema.Unknown),
  properties: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  required: Schema.optional(Schema.Array(Schema.String)),
  additionalProperties: Schema.optional(Schema.Unknown)
})
const decodeSketchable = Schema.decodeUnknownEither(Sketchable)

/** A JSON Schema as a short TypeScript-like type: `{ status: "cached"; count: number }`. */
export const sketch = (schema: unknown, depth = 0): string => {
  const s = decodeSketchable(schema)
  if (Either.isLeft(s) || depth > 6) return "unknown"
  const v = s.right
  if (v.$ref !== undefined) return v.$ref.split("/").pop() ?? "unknown"
  if (v.enum !== undefined) return v.enum.map((e) => JSON.stringify(e)).join(" | ")
  if (v.anyOf !== undefined) return v.anyOf.map((a) => sketch(a, depth + 1)).join(" | ")
  if (v.type === "array") return `Array<${sketch(v.items, depth + 1)}>`
  if (v.type === "object" || v.properties !== undefined) {
    const required = new Set(v.required ?? [])
    const fields = Object.entries(v.properties ?? {}).map(
      ([k, p]) => `${k}${required.has(k) ? "" : "?"}: ${sketch(p, depth + 1)}`
    )
    const rest = typeof v.additionalProperties === "object" ? sketch(v.additionalProperties, depth + 1) : undefined
    if (fields.length === 0) return rest === undefined ? "object" : `Record<string, ${rest}>`
    return `{ ${fields.join("; ")} }`
  }
  if (typeof v.type === "string") return v.type === "integer" ? "number" : v.type
  if (v.type !== undefined) return v.type.join(" | ")
  return "unknown"
}

const media = (content: typeof Media.Type | undefined) =>
  Object.entries(content ?? {})
    .map(([type, m]) => `<li><code>${escape(type)}</code>: <code>${escape(sketch(m.schema))}</code></li>`)
    .join("")

const operationCard = (method: string, path: string, op: Operation) => {
  const params = op.parameters
    .map(
      (p) =>
        `<li><code>${escape(p.name)}</code> (${escape(p.in)}${p.required ? ", required" : ""}): ` +
        `<code>${escape(sketch(p.schema))}</code></li>`
    )
    .join("")
  const body =
    op.requestBody === undefined
      ? ""
      : `<p>Body${op.requestBody.required ? "" : " (optional)"}:</p><ul>${media(op.requestBody.content)}</ul>`
  const answers = Object.entries(op.responses)
    .map(([status, r]) =>
      status.startsWith("2")
        ? `<li>${escape(status)}<ul>${media(r.content)}</ul></li>`
        : `<li>${escape(status)}: ${escape(r.description)}</li>`
    )
    .join("")
  return (
    `<div class="card" id="${escape(op.operationId)}"><h3><span class="badge">${escape(method.toUpperCase())}` +
    `</span> <code>${escape(path)}</code></h3><p>${escape(op.summary)} · client: ` +
    `<code>client.${escape(op.operationId)}()</code></p>` +
    (params === "" ? "" : `<p>Parameters:</p><ul>${params}</ul>`) +
    `${body}<p>Answers:</p><ul>${answers}</ul></div>`
  )
}

/** The whole page, or a short error page when the document does not decode (a bug, shown rather than hidden). */
export const docsPage = (document: unknown): string => {
  const decoded = Schema.decodeUnknownEither(Document)(document)
  const head = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>kioku · API</title><style>${css}h3{font-size:1rem;margin:.25rem 0}</style></head><body>`
  if (Either.isLeft(decoded)) return `${head}<main><p>The OpenAPI document did not decode.</p></main></body></html>`
  const doc = decoded.right
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op }))
  )
  const sections = doc.tags
    .map((tag) => {
      const mine = ops.filter((o) => o.op.tags.includes(tag.name))
      return (
        `<h2 id="tag-${escape(tag.name)}">${escape(tag.name)} <span class="muted">${escape(tag.description)}</span></h2>` +
        mine.map((o) => operationCard(o.method, o.path, o.op)).join("")
      )
    })
    .join("")
  const toc = doc.tags
    .map((t) => `<li><a href="#tag-${escape(t.name)}">${escape(t.name)}</a>: ${escape(t.description)}</li>`)
    .join("")
  return `${head}
<header><h1>${escape(doc.info.title)} API <span class="muted">${escape(doc.info.version)}</span></h1></header>
<main><p>${escape(doc.info.description)}</p>
<p>${ops.length} operations. The machine-readable document: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1); the typed client: <code>import { createClient } from "kioku/client"</code>. Back to <a href="/">the landing page</a>.</p>
<ul>${toc}</ul>${sections}</main></body></html>`
}
