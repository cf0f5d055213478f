import { assert, describe, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import * as path from "node:path"
import ts from "typescript"
import { Either } from "effect"
import { checkOverrides } from "../../src/Config.js"
import { retiredTunables, tunableDefaults } from "../../src/Tunables.js"

const root = path.resolve(import.meta.dirname, "../..")
const src = path.join(root, "src")

const sources = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(path.join(dir, d.name)) : d.name.endsWith(".ts") ? [path.join(dir, d.name)] : []
  )

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true)

/** Every module specifier of a file: imports and re-exports (type-only ones too) and dynamic `import()`. */
const specifiers = (sf: ts.SourceFile): ReadonlyArray<string> => {
  const out: Array<string> = []
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) out.push(node.moduleSpecifier.text)
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] !== undefined &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      out.push(node.arguments[0].text)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

/** The import graph among src/ modules (relative specifiers resolved to their .ts file). */
const graph = (): ReadonlyMap<string, ReadonlyArray<string>> => {
  const files = sources(src)
  const known = new Set(files)
  return new Map(
    files.map((file) => [
      path.relative(root, file),
      specifiers(parse(file))
        .filter((s) => s.startsWith("."))
        .map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, ".ts")))
        .filter((target) => known.has(target))
        .map((target) => path.relative(root, target))
    ])
  )
}

/** The strongly connected components with more than one module, or a module importing itself (Tarjan). */
const circles = (g: ReadonlyMap<string, ReadonlyArray<string>>): ReadonlyArray<ReadonlyArray<string>> => {
  let counter = 0
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const found: Array<ReadonlyArray<string>> = []
  const connect = (v: string) => {
    index.set(v, counter)
    low.set(v, counter)
    counter++
    stack.push(v)
    onStack.add(v)
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w)
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0))
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0))
    }
    if (low.get(v) === index.get(v)) {
      const component: Array<string> = []
      let w: string | undefined
      do {
        w = stack.pop()
        if (w !== undefined) {
          onStack.delete(w)
          component.push(w)
        }
      } while (w !== undefined && w !== v)
      if (component.length > 1 || (g.get(v) ?? []).includes(v)) found.push(component.sort())
    }
  }
  for (const v of g.keys()) if (!index.has(v)) connect(v)
  return found
}

/**
 * Names read from an object in source code: property accesses (`t.name`, `t?.name`), element accesses with a
 * literal key (`t["name"]`) and destructured properties (`const { name } = t`). Comments and strings are not
 * code, so a name mentioned there does not count.
 */
const readNames = (sf: ts.SourceFile): ReadonlySet<string> => {
  const out = new Set<string>()
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAccessExpression(node)) out.add(node.name.text)
    else if (ts.isElementAccessExpression(node) && ts.isStringLiteralLike(node.argumentExpression)) {
      out.add(node.argumentExpression.text)
    } else if (ts.isBindingElement(node) && ts.isObjectBindingPattern(node.parent)) {
      const key = node.propertyName ?? node.name
      if (ts.isIdentifier(key) || ts.isStringLiteral(key)) out.add(key.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return out
}

describe("source structure", () => {
  it("has no import circles among src/ modules (type-only imports included)", () => {
    assert.deepStrictEqual(circles(graph()), [])
  })

  it("finds a circle when there is one (the check itself)", () => {
    const g = new Map([
      ["a", ["b"]],
      ["b", ["c"]],
      ["c", ["a"]],
      ["d", ["a"]],
      ["e", ["e"]]
    ])
    assert.deepStrictEqual(circles(g), [["a", "b", "c"], ["e"]])
    const sf = ts.createSourceFile(
      "x.ts",
      'import type { A } from "./a.js"\nexport { b } from "./b.js"\nconst c = () => import("./c.js")\n',
      ts.ScriptTarget.ES2022,
      true
    )
    assert.deepStrictEqual(specifiers(sf), ["./a.js", "./b.js", "./c.js"])
  })

  it("keeps every folder of src/ at 20 modules or fewer", () => {
    const counts = new Map<string, number>()
    for (const file of sources(src)) {
      const dir = path.relative(root, path.dirname(file))
      counts.set(dir, (counts.get(dir) ?? 0) + 1)
    }
    assert.deepStrictEqual(
      [...counts].filter(([, n]) => n > 20),
      []
    )
  })

  it("keeps the actor runtime free of features and of the character module", () => {
    const features = /^src\/(character|recent|facts|reflection|persona|recall|vectors|dialog|scoped|trust)\//
    const reaching = [...graph()].flatMap(([from, tos]) =>
      from.startsWith("src/runtime/") ? tos.filter((to) => features.test(to)).map((to) => `${from} -> ${to}`) : []
    )
    assert.deepStrictEqual(reaching, [])
  })

  it("keeps every feature free of the character module (features see their slice through a host type)", () => {
    const feature = /^src\/(recent|facts|reflection|persona|recall|vectors|dialog|scoped|trust)\//
    const reaching = [...graph()].flatMap(([from, tos]) =>
      feature.test(from) ? tos.filter((to) => to.startsWith("src/character/")).map((to) => `${from} -> ${to}`) : []
    )
    assert.deepStrictEqual(reaching, [])
  })

  it("reads every declared tunable somewhere in src/ (not only in a comment or a string)", () => {
    const read = new Set<string>()
    for (const file of sources(src)) {
      if (path.relative(src, file) === "Tunables.ts") continue
      for (const name of readNames(parse(file))) read.add(name)
    }
    assert.deepStrictEqual(
      Object.keys(tunableDefaults).filter((name) => !read.has(name)),
      []
    )
  })

  it("does not count a tunable that is only mentioned (the check itself)", () => {
    const sf = ts.createSourceFile(
      "x.ts",
      '// t.in_comment\nconst s = "t.in_string"\nconst { destructured, other: renamed } = t\nt.accessed\nt["indexed"]\n',
      ts.ScriptTarget.ES2022,
      true
    )
    const names = readNames(sf)
    assert.deepStrictEqual(
      ["in_comment", "in_string", "destructured", "other", "accessed", "indexed"].map((n) => names.has(n)),
      [false, false, true, true, true, true]
    )
  })

  it("refuses a retired N.E.K.O. tunable in a config with a message that says so", () => {
    assert.isTrue(retiredTunables.has("memory_refine_cron_interval_seconds"))
    assert.isFalse(Object.keys(tunableDefaults).some((name) => retiredTunables.has(name)))
    const refused = checkOverrides({ memory_refine_cron_interval_seconds: 60 })
    assert.isTrue(Either.isLeft(refused) && refused.left.message.includes("not used by kioku"))
    assert.isTrue(Either.isRight(checkOverrides({ rebuttal_check_interval_seconds: 60 })))
  })
})
