import { assert, describe, it } from "@effect/vitest"
import { graphs } from "../../src/statecharts/Graph.js"
import { layout, ranks, renderSvg } from "../../src/statecharts/Layout.js"

describe("state-chart layout", () => {
  it("ranks by BFS from the initial state, final states last", () => {
    const reflection = graphs().find((g) => g.id === "reflection")
    assert.isDefined(reflection)
    if (reflection === undefined) return
    const r = ranks(reflection)
    assert.strictEqual(r.get("pending"), 0)
    assert.strictEqual(r.get("confirmed"), 1)
    assert.strictEqual(r.get("promoted"), 2)
    assert.strictEqual(r.get("archived"), 3)
    assert.deepStrictEqual(layout(reflection), layout(reflection))
  })

  it("renders every state (focusable, labelled with its count) and every edge label", () => {
    for (const g of graphs()) {
      const svg = renderSvg(g, { [g.states[0]?.id ?? ""]: 3 })
      assert.match(svg, /^<svg [^>]*role="img"/)
      assert.include(svg, `<title id="title-${g.id}">`)
      for (const s of g.states) {
        assert.include(svg, `data-state="${s.id}" tabindex="0" role="button" aria-label="${s.label} (`)
      }
      assert.include(svg, `aria-label="${g.states[0]?.label} (3 entries)"`)
      for (const e of g.edges) assert.include(svg, e.event)
      assert.strictEqual(renderSvg(g), renderSvg(g))
    }
    const reflection = renderSvg(graphs()[0] ?? { id: "", states: [], edges: [] })
    assert.match(reflection, /class="state final" data-machine="reflection" data-state="archived"[^]*?class="inner"/)
  })
})
