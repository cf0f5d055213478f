/**
 * Translates the JSON Schema effect writes for a task's output (`JSONSchema.make`, draft-07) into the subset
 * node-llama-cpp builds a sampling grammar from: objects (properties, required, additional properties), arrays
 * (items, tuples, item counts), strings (lengths, date formats), numbers, integers, booleans, null, enums,
 * consts, unions (`anyOf` → `oneOf`) and `$defs` references. What the subset cannot say (patterns, numeric
 * bounds, `allOf`) is left out, so the grammar is never stricter than the Schema the answer is decoded with;
 * an unknown value (`Schema.Unknown`) may be any JSON.
 */

type Scalar = "string" | "number" | "integer" | "boolean" | "null"

export type GrammarSchema =
  | { readonly type: Scalar | ReadonlyArray<Scalar> }
  | { readonly type: "string"; readonly minLength?: number; readonly maxLength?: number }
  | { readonly type: "string"; readonly format: "date-time" | "time" | "date" }
  | { readonly const: string | number | boolean | null }
  | { readonly enum: ReadonlyArray<string | number | boolean | null> }
  | { readonly oneOf: ReadonlyArray<GrammarSchema> }
  | {
      readonly type: "object"
      readonly properties?: { readonly [key: string]: GrammarSchema }
      readonly required?: ReadonlyArray<string>
      readonly additionalProperties?: boolean | GrammarSchema
    }
  | {
      readonly type: "array"
      readonly items?: GrammarSchema
      readonly prefixItems?: ReadonlyArray<GrammarSchema>
      readonly minItems?: number
      readonly maxItems?: number
    }
  | { readonly $ref: `#/$defs/${string}` }

export type GrammarRoot = GrammarSchema & { readonly $defs?: { readonly [key: string]: GrammarSchema } }

type Json = { readonly [key: string]: unknown }

const isObject = (u: unknown): u is Json => typeof u === "object" && u !== null && !Array.isArray(u)
const scalars: ReadonlyArray<string> = ["string", "number", "integer", "boolean", "null"]
const isScalar = (u: unknown): u is Scalar => typeof u === "string" && scalars.includes(u)
const isLiteral = (u: unknown): u is string | number | boolean | null =>
  u === null || typeof u === "string" || typeof u === "number" || typeof u === "boolean"
const count = (u: unknown): number | undefined =>
  typeof u === "number" && Number.isInteger(u) && u >= 0 ? u : undefined

export const anyJson: GrammarSchema = {
  oneOf: [
    { type: ["string", "number", "boolean", "null"] },
    { type: "object", additionalProperties: true },
    { type: "array" }
  ]
}

const defPrefix = "#/$defs/"

const translate = (u: unknown, defs: ReadonlySet<string>): GrammarSchema => {
  if (!isObject(u)) return anyJson
  const ref = u["$ref"]
  if (typeof ref === "string") {
    const name = ref.startsWith(defPrefix) ? ref.slice(defPrefix.length) : ""
    return defs.has(name) ? { $ref: `${defPrefix}${name}` } : anyJson
  }
  const union = u["anyOf"] ?? u["oneOf"]
  if (Array.isArray(union)) return union.length === 0 ? anyJson : { oneOf: union.map((s) => translate(s, defs)) }
  const all = u["allOf"]
  if (Array.isArray(all)) return all.length === 1 ? translate(all[0], defs) : anyJson
  if ("const" in u && isLiteral(u["const"])) return { const: u["const"] }
  const values = u["enum"]
  if (Array.isArray(values) && values.length > 0 && values.every(isLiteral)) return { enum: values }
  const type = u["type"]
  if (type === "object") return object(u, defs)
  if (type === "array") return array(u, defs)
  if (type === "string") {
    const format = u["format"]
    if (format === "date-time" || format === "time" || format === "date") return { type: "string", format }
    const minLength = count(u["minLength"])
    const maxLength = count(u["maxLength"])
    return {
      type: "string",
      ...(minLength !== undefined ? { minLength } : {}),
      ...(maxLength !== undefined ? { maxLength } : {})
    }
  }
  if (isScalar(type)) return { type }
  if (Array.isArray(type)) {
    const kinds = type.filter(isScalar)
    if (kinds.length === type.length && kinds.length > 0) return { type: kinds }
    return { oneOf: type.map((t) => translate({ ...u, type: t }, defs)) }
  }
  return anyJson
}

const object = (u: Json, defs: ReadonlySet<string>): GrammarSchema => {
  const props = isObject(u["properties"]) ? u["properties"] : {}
  const properties: Record<string, GrammarSchema> = {}
  for (const [key, value] of Object.entries(props)) properties[key] = translate(value, defs)
  const required = Array.isArray(u["required"])
    ? u["required"].filter((k): k is string => typeof k === "string" && k in properties)
    : []
  const extra = u["additionalProperties"]
  const additionalProperties = extra === false ? false : isObject(extra) ? translate(extra, defs) : true
  return { type: "object", properties, required, additionalProperties }
}

const array = (u: Json, defs: ReadonlySet<string>): GrammarSchema => {
  const items = u["items"]
  const minItems = count(u["minItems"])
  let maxItems = count(u["maxItems"])
  if (Array.isArray(items)) {
    const prefixItems = items.map((s) => translate(s, defs))
    const rest = u["additionalItems"]
    if (rest === false) maxItems = prefixItems.length
    return {
      type: "array",
      prefixItems,
      ...(isObject(rest) ? { items: translate(rest, defs) } : {}),
      ...(minItems !== undefined ? { minItems } : {}),
      ...(maxItems !== undefined ? { maxItems } : {})
    }
  }
  return {
    type: "array",
    ...(items !== undefined ? { items: translate(items, defs) } : {}),
    ...(minItems !== undefined ? { minItems } : {}),
    ...(maxItems !== undefined ? { maxItems } : {})
  }
}

/** The grammar schema of a JSON Schema document (its `$defs` carried over to the root). */
export const grammarSchema = (root: unknown): GrammarRoot => {
  const rawDefs = isObject(root) && isObject(root["$defs"]) ? root["$defs"] : {}
  const names = new Set(Object.keys(rawDefs))
  const top = translate(root, names)
  if (names.size === 0) return top
  const $defs: Record<string, GrammarSchema> = {}
  for (const [name, def] of Object.entries(rawDefs)) $defs[name] = translate(def, names)
  return { ...top, $defs }
}
