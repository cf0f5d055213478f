/**
 * The `/statecharts` page: the four machines' SVGs (rendered by Layout from the generated graphs), a
 * character picker and an entries/history panel, with inline CSS; its script is web/statecharts.ts, served by
 * kioku at /assets/ (no CDN, so it works offline). The layout
 * is one column on a phone and charts + side panel from 1000px; every control is keyboard reachable.
 */
import { graphs } from "./Graph.js"
import { renderSvg } from "./Layout.js"
import { scriptTag } from "../browser/Assets.js"

const css = `
*{box-sizing:border-box}body{margin:0;font:15px/1.4 system-ui,sans-serif;color:#1d232a;background:#f6f7f9}
header{display:flex;flex-wrap:wrap;gap:.75rem;align-items:center;padding:.75rem 1rem;background:#fff;border-bottom:1px solid #d6dbe1}
h1{font-size:1.2rem;margin:0 1rem 0 0}main{display:grid;gap:1rem;padding:1rem;grid-template-columns:minmax(0,1fr)}
@media(min-width:1000px){main{grid-template-columns:minmax(0,1fr) 360px}#panel{position:sticky;top:1rem;align-self:start}}
section.machine{background:#fff;border:1px solid #d6dbe1;border-radius:8px;padding:.5rem 1rem;margin-bottom:1rem;overflow-x:auto}
h2{font-size:1rem;margin:.25rem 0}svg.chart{max-width:100%;height:auto;font:12px system-ui,sans-serif}
.state rect{fill:#fff;stroke:#3b4652;stroke-width:1.5}.state .inner{fill:none}.state.final rect:first-of-type{fill:#eef1f4}
.state{cursor:pointer;outline:none}.state:hover rect,.state:focus rect{stroke:#0b5cad;stroke-width:3}
.state.selected rect{fill:#dcebfb}.state .count{font-weight:600;fill:#0b5cad}.start{fill:#3b4652}
.edge path{fill:none;stroke:#7a8591;stroke-width:1.2}.edge marker path,marker path{fill:#7a8591}
.edge text{fill:#3b4652;font-size:10.5px;paint-order:stroke;stroke:#fff;stroke-width:4px}
#panel{background:#fff;border:1px solid #d6dbe1;border-radius:8px;padding:.75rem 1rem;min-height:8rem}
#panel ul{list-style:none;padding:0;margin:.5rem 0}#panel li{margin:.25rem 0}
#panel button{width:100%;text-align:left;font:inherit;padding:.4rem .5rem;border:1px solid #d6dbe1;border-radius:6px;background:#f9fafb;cursor:pointer}
#panel button:focus,#panel button:hover{outline:2px solid #0b5cad}table{border-collapse:collapse;width:100%;font-size:.85rem;table-layout:fixed;overflow-wrap:anywhere}
td,th{border-bottom:1px solid #e3e7eb;padding:.25rem;text-align:left;vertical-align:top}.muted{color:#5f6b77}
select{font:inherit;padding:.3rem}
@media(max-width:700px){svg.chart{max-width:none}main{padding:.5rem}section.machine{padding:.5rem}}`

const section = (svg: string, id: string) =>
  `<section class="machine" aria-labelledby="h-${id}"><h2 id="h-${id}">${id}</h2>${svg}</section>`

/** The whole page; the charts are generated from the machines on every call (cheap, and never stale). */
export const statechartsPage = (): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width,initial-scale=1"><title>kioku · state charts</title>` +
  `<style>${css}</style></head><body><header><h1>kioku state charts</h1>` +
  `<label for="character">Character</label> <select id="character"></select>` +
  `<span id="status" class="muted" role="status" aria-live="polite"></span>` +
  `<span id="live" class="muted" aria-live="polite"></span></header><main><div id="charts">` +
  graphs()
    .map((g) => section(renderSvg(g), g.id))
    .join("") +
  `</div><aside id="panel" aria-live="polite"><h2>Entries</h2><p class="muted">Choose a state to list its entries, ` +
  `then an entry to see its history.</p></aside></main>${scriptTag("statecharts.js")}</body></html>`
