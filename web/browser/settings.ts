/**
 * The Settings tab: the powerful-memory and auto-review toggles (N.E.K.O.'s `/api/memory/*_config`
 * routes; a failed change puts the box back) and the last 7 days' lifecycle funnel as an SVG bar chart.
 */
import { client } from "../lib/api.js"
import { byId } from "../lib/dom.js"

const toggles = [
  {
    id: "powerful",
    read: () => client.getPowerfulMemoryConfig(),
    write: (enabled: boolean) => client.setPowerfulMemoryConfig({ body: { enabled } }),
    label: "Powerful memory"
  },
  {
    id: "review",
    read: () => client.getReviewConfig(),
    write: (enabled: boolean) => client.setReviewConfig({ body: { enabled } }),
    label: "Auto review"
  }
] as const

export const initSettings = () => {
  for (const t of toggles) {
    const box = byId(t.id, HTMLInputElement)
    const message = byId(`${t.id}-msg`, HTMLElement)
    void t.read().then((r) => {
      if (r.ok) box.checked = r.value.enabled
    })
    box.addEventListener("change", async () => {
      const on = box.checked
      const r = await t.write(on)
      if (r.ok) message.textContent = `${t.label} ${on ? "on" : "off"}.`
      else {
        box.checked = !on
        message.textContent = `Could not change: ${r.error.message}`
      }
    })
  }
}

const svgNs = "http://www.w3.org/2000/svg"
const svgEl = (tag: string, attrs: Readonly<Record<string, string | number>>, text?: string) => {
  const e = document.createElementNS(svgNs, tag)
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v))
  if (text !== undefined) e.textContent = text
  return e
}

export const renderFunnel = async (name: string) => {
  const reply = await client.funnel({ name })
  const counts = Object.entries(reply.ok ? reply.value.counts : {})
  const max = Math.max(1, ...counts.map(([, n]) => n))
  const row = 22
  const width = 420
  const labelWidth = 190
  const svg = svgEl("svg", {
    viewBox: `0 0 ${width} ${counts.length * row + 4}`,
    role: "img",
    "aria-label": "Lifecycle transitions in the last 7 days"
  })
  counts.forEach(([key, n], i) => {
    const y = i * row + 2
    const bar = Math.max(1, ((width - labelWidth - 40) * n) / max)
    svg.append(
      svgEl("text", { x: 0, y: y + 15 }, key.replace(/_/g, " ")),
      svgEl("rect", { x: labelWidth, y: y + 3, height: 15, width: bar, class: "bar" }),
      svgEl("text", { x: labelWidth + bar + 4, y: y + 15 }, String(n))
    )
  })
  byId("funnel", HTMLElement).replaceChildren(svg)
}
