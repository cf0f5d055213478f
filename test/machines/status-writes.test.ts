/**
 * The machines own every lifecycle transition: no status field of a reflection or persona entry (`status`,
 * `suppress`, `suppressed_at`) is written anywhere in src/ except by the modules that apply a machine's
 * result, the creation of a new record, and the stores that apply a journaled archive. A record write is an
 * object literal that sets one of those fields and spreads or names a record (`...r`, `id:`), or an
 * assignment to such a field (schemas of such records are not writes).
 */
import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"

const FIELDS = new Set(["status", "suppress", "suppressed_at"])

/** Where a status field may be written, and why. */
const ALLOWED: Readonly<Record<string, string>> = {
  "src/reflection/ReflectionTransitions.ts": "applies the reflection machine's actions",
  "src/persona/PersonaTransitions.ts": "applies the persona machine's actions",
  "src/reflection/ReflectionSynth.ts": "creates a new pending reflection",
  "src/persona/Persona.ts": "creates a new persona entry (not suppressed)",
  "src/reflection/ReflectionStore.ts": "stamps a reflection a journaled archive moves into its shard",
  "src/browser/Snapshot.ts": "labels archived shard rows for display; writes nothing",
  "src/http/ScopedRoutes.ts": "the scoped_forget answer's `status`, not a record's",
  "src/trust/IdentityGraph.ts": "an identity entity's `status` (merged), not a reflection or persona entry",
  "src/trust/Ledger.ts": "a legacy barrier's `status` (cleared) in speaker_trust.json",
  "src/trust/PoolFile.ts": "a legacy barrier read from speaker_trust.json"
}

const nameOf = (n: ts.PropertyName | ts.Expression): string | undefined =>
  ts.isIdentifier(n) || ts.isStringLiteral(n) ? n.text : undefined

/** A record's schema (`Schema.Struct({ … })`), not a record. */
const isSchema = (node: ts.ObjectLiteralExpression) =>
  ts.isCallExpression(node.parent) && /(Struct|Class)$/.test(node.parent.expression.getText())

/** A literal spread into another (`...(cond ? { suppress: true } : {})`): part of that record. */
const spreadInto = (node: ts.Node): boolean => {
  const parent = node.parent
  if (ts.isParenthesizedExpression(parent) || ts.isConditionalExpression(parent)) return spreadInto(parent)
  return ts.isSpreadAssignment(parent)
}

/** The status-field writes in one module's text: `line: field` for each. */
export const statusWrites = (file: string, text: string): Array<string> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true)
  const found: Array<string> = []
  const at = (node: ts.Node, field: string) =>
    found.push(`${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${field}`)
  const visit = (node: ts.Node): void => {
    if (ts.isObjectLiteralExpression(node) && !isSchema(node)) {
      const names = node.properties.flatMap((p) =>
        (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) && nameOf(p.name) !== undefined
          ? [nameOf(p.name) ?? ""]
          : []
      )
      const record = node.properties.some(ts.isSpreadAssignment) || names.includes("id") || spreadInto(node)
      if (record) for (const n of names) if (FIELDS.has(n)) at(node, n)
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
      const target = node.left
      const field = ts.isPropertyAccessExpression(target)
        ? target.name.text
        : ts.isElementAccessExpression(target)
          ? nameOf(target.argumentExpression)
          : undefined
      if (field !== undefined && FIELDS.has(field)) at(node, field)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const modules = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? modules(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : []
  )

describe("status fields", () => {
  it("are written only where a machine's result is applied, or a new record created", () => {
    const root = path.resolve(import.meta.dirname, "../..")
    const offending = modules(path.join(root, "src")).flatMap((file) => {
      const rel = path.relative(root, file).split(path.sep).join("/")
      if (rel in ALLOWED) return []
      return statusWrites(rel, readFileSync(file, "utf8")).map((w) => `${rel}:${w}`)
    })
    assert.deepStrictEqual(offending, [])
  })

  it("catches a record update, a new record and an assignment, and ignores other status literals", () => {
    const text = [
      `const a = { ...r, status: "denied", denied_at: ts }`,
      `const b = { id: "x", text: "", suppress: true }`,
      `entry.suppressed_at = null`,
      `r["status"] = to`,
      `const c = { ...e, mentions, ...(over ? { suppress: true } : {}) }`,
      `const reply = { status: "cached", count: 2 }`,
      `const Row = Schema.Struct({ id: Schema.String, status: Schema.String })`,
      `if (r.status === "confirmed") use(r)`
    ].join("\n")
    assert.deepStrictEqual(statusWrites("planted.ts", text), [
      "1: status",
      "2: suppress",
      "3: suppressed_at",
      "4: status",
      "5: suppress"
    ])
  })
})
