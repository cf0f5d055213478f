/**
 * A deterministic layered layout of a machine graph and its accessible SVG. States are ranked by BFS from
 * the initial state (unreachable ones go below, final ones last), ordered by definition within a rank and
 * placed top to bottom; edges between the same two states merge into one arrow labelled with their
 * events, self-edges are loops above the state's top-right corner. Every state is a focusable
 * `<g role="button">` whose aria-label carries its entry count; final states are double-bordered. States
 * are drawn last so their names stay readable; each arrow's `<title>` lists its events, guards and
 * actions. Pure: the same graph always renders the same bytes.
 */
import type { GraphEdge, MachineGraph } from "./Graph.js"

export interface Box {
  readonly id: string
  readonly label: string
  readonly final: boolean
  readonly initial: boolean
  readonly x: number
  readonly y: number
}

export interface Layout {
  readonly width: number
  readonly height: number
  readonly boxes: ReadonlyArray<Box>
}

const W = 150
const H = 44
const GAP_X = 60
const GAP_Y = 110
const MARGIN = 50
/** Room on the right for the last self-loop's label. */
const RIGHT = 60
/** Room for the labels of a one-column machine. */
const MIN_WIDTH = 560

export const ranks = (graph: MachineGraph): ReadonlyMap<string, number> => {
  const rank = new Map<string, number>()
  const start = graph.states.find((s) => s.initial && s.parent === undefined) ?? graph.states[0]
  if (start === undefined) return rank
  rank.set(start.id, 0)
  const queue = [start.id]
  for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
    const r = rank.get(id) ?? 0
    for (const e of graph.edges) {
      if (e.from === id && !rank.has(e.to)) {
        rank.set(e.to, r + 1)
        queue.push(e.to)
      }
    }
  }
  const below = Math.max(...rank.values()) + 1
  for (const s of graph.states) if (!rank.has(s.id)) rank.set(s.id, below)
  const last = Math.max(...graph.states.filter((s) => !s.final).map((s) => rank.get(s.id) ?? 0)) + 1
  for (const s of graph.states) if (s.final) rank.set(s.id, last)
  return rank
}

export const layout = (graph: MachineGraph): Layout => {
  const rank = ranks(graph)
  const depth = Math.max(0, ...rank.values()) + 1
  const rows = Array.from({ length: depth }, (_, r) => graph.states.filter((s) => (rank.get(s.id) ?? 0) === r))
  const widest = Math.max(1, ...rows.map((r) => r.length))
  const width = Math.max(MIN_WIDTH, MARGIN * 2 + widest * W + (widest - 1) * GAP_X + RIGHT)
  const boxes = rows.flatMap((row, r) => {
    const used = row.length * W + (row.length - 1) * GAP_X
    const left = (width - RIGHT - used) / 2
    return row.map((s, i): Box => ({ ...s, x: left + i * (W + GAP_X), y: MARGIN + r * (H + GAP_Y) }))
  })
  return { width, height: MARGIN * 2 + rows.length * H + (rows.length - 1) * GAP_Y, boxes }
}

const esc = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")

const round = (n: number): string => (Math.round(n * 10) / 10).toString()

/** Edges grouped by (from, to), in first-seen order; the label lists each event once. */
export const arrows = (edges: ReadonlyArray<GraphEdge>) => {
  const groups = new Map<string, { from: string; to: string; edges: Array<GraphEdge> }>()
  for (const e of edges) {
    const key = `${e.from}\u0000${e.to}`
    const group = groups.get(key) ?? { from: e.from, to: e.to, edges: [] }
    group.edges.push(e)
    groups.set(key, group)
  }
  return [...groups.values()].map((g) => ({
    ...g,
    label: [...new Set(g.edges.map((e) => e.event))].join(", "),
    detail: g.edges
      .map((e) => `${e.event}${e.guard === undefined ? "" : ` [${e.guard}]`} / ${e.actions.join(", ") || "—"}`)
      .join("\n")
  }))
}

const border = (b: Box, x: number, y: number): { x: number; y: number } => {
  const cx = b.x + W / 2
  const cy = b.y + H / 2
  const dx = x - cx
  const dy = y - cy
  const t = Math.min(dx === 0 ? Infinity : W / 2 / Math.abs(dx), dy === 0 ? Infinity : H / 2 / Math.abs(dy))
  return { x: cx + dx * t, y: cy + dy * t }
}

const arrowPath = (a: Box, b: Box, twoWay: boolean): { d: string; lx: number; ly: number; anchor: string } => {
  if (a.id === b.id) {
    const x = a.x + W - 28
    const y = a.y
    return {
      d: `M${round(x - 10)},${round(y)} C${round(x - 28)},${round(y - 42)} ${round(x + 28)},${round(y - 42)} ${round(x + 10)},${round(y)}`,
      lx: x,
      ly: y - 36,
      anchor: "middle"
    }
  }
  const ax = a.x + W / 2
  const ay = a.y + H / 2
  const bx = b.x + W / 2
  const by = b.y + H / 2
  const len = Math.hypot(bx - ax, by - ay)
  const bend = a.y === b.y ? 0.35 * len : Math.abs(b.y - a.y) > H + GAP_Y ? 0.22 * len : twoWay ? 45 : 30
  const cx = (ax + bx) / 2 + ((by - ay) / len) * bend
  const cy = (ay + by) / 2 - ((bx - ax) / len) * bend
  const s = border(a, cx, cy)
  const e = border(b, cx, cy)
  return {
    d: `M${round(s.x)},${round(s.y)} Q${round(cx)},${round(cy)} ${round(e.x)},${round(e.y)}`,
    lx: (s.x + 2 * cx + e.x) / 4,
    ly: (s.y + 2 * cy + e.y) / 4,
    anchor: a.y === b.y || Math.abs(cx - (ax + bx) / 2) < 8 ? "middle" : cx < (ax + bx) / 2 ? "end" : "start"
  }
}

/** The SVG of one machine; `counts` fills the aria-labels and count badges (unknown counts show 0). */
export const renderSvg = (graph: MachineGraph, counts: Readonly<Record<string, number>> = {}): string => {
  const l = layout(graph)
  const byId = new Map(l.boxes.map((b) => [b.id, b]))
  const marker = `arrow-${graph.id}`
  const edges = arrows(graph.edges).flatMap((a) => {
    const from = byId.get(a.from)
    const to = byId.get(a.to)
    if (from === undefined || to === undefined) return []
    const p = arrowPath(
      from,
      to,
      graph.edges.some((e) => e.from === a.to && e.to === a.from)
    )
    const edge = `class="edge" data-from="${esc(a.from)}" data-to="${esc(a.to)}"`
    return [
      {
        path: `<g ${edge}><title>${esc(a.detail)}</title><path d="${p.d}" marker-end="url(#${marker})"/></g>`,
        label:
          `<g ${edge} aria-hidden="true"><text x="${round(p.lx)}" y="${round(p.ly)}" ` +
          `text-anchor="${p.anchor}">${esc(a.label)}</text></g>`
      }
    ]
  })
  const states = l.boxes.map((b) => {
    const n = counts[b.id] ?? 0
    const inner = b.final
      ? `<rect class="inner" x="${round(b.x + 4)}" y="${round(b.y + 4)}" width="${W - 8}" height="${H - 8}" rx="6"/>`
      : ""
    const start = b.initial ? `<circle class="start" cx="${round(b.x - 14)}" cy="${round(b.y + H / 2)}" r="5"/>` : ""
    return (
      `<g class="state${b.final ? " final" : ""}" data-machine="${esc(graph.id)}" data-state="${esc(b.id)}" ` +
      `tabindex="0" role="button" aria-label="${esc(b.label)} (${n} entries)">${start}` +
      `<rect x="${round(b.x)}" y="${round(b.y)}" width="${W}" height="${H}" rx="10"/>${inner}` +
      `<text x="${round(b.x + W / 2)}" y="${round(b.y + 19)}" text-anchor="middle">${esc(b.label)}</text>` +
      `<text class="count" x="${round(b.x + W / 2)}" y="${round(b.y + 35)}" text-anchor="middle">${n}</text></g>`
    )
  })
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="chart-${esc(graph.id)}" role="img" ` +
    `aria-labelledby="title-${esc(graph.id)}" width="${round(l.width)}" height="${round(l.height)}" viewBox="0 0 ${round(l.width)} ${round(l.height)}">` +
    `<title id="title-${esc(graph.id)}">${esc(graph.id)} state machine</title>` +
    `<defs><marker id="${marker}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" ` +
    `orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>` +
    edges.map((e) => e.path).join("") +
    edges.map((e) => e.label).join("") +
    states.join("") +
    `</svg>`
  )
}
