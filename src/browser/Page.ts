/**
 * The `/memory_browser` page: a character picker and six tabs (Recent, Facts, Reflections, Persona,
 * Subjects, Settings) with inline CSS; its script is web/memory-browser.ts, served by kioku at /assets/ (no CDN, so it
 * works offline).
 * Every control is a real button, checkbox or labelled field with a visible focus ring; the layout is one
 * column, readable from a 390px phone to a desktop, and long texts wrap instead of widening the page.
 */
import { scriptTag } from "./Assets.js"

const css = `
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d232a;background:#f6f7f9;overflow-wrap:anywhere}
header{display:flex;flex-wrap:wrap;gap:.5rem .75rem;align-items:center;padding:.75rem 1rem;background:#fff;border-bottom:1px solid #d6dbe1}
h1{font-size:1.2rem;margin:0 1rem 0 0}h2{font-size:1.05rem;margin:.25rem 0 .5rem}h3{font-size:.95rem;margin:1rem 0 .25rem}.psection h3{text-transform:capitalize}
.subject{background:#fff;border:1px solid #d6dbe1;border-radius:8px;padding:.4rem .9rem .7rem;margin:.75rem 0}.subject>h3{margin:.4rem 0 0}
.subject h4{font-size:.9rem;margin:.6rem 0 .1rem}.subject .card{background:#f9fafb}
main{max-width:960px;margin:0 auto;padding:1rem}
[role=tablist]{display:flex;flex-wrap:wrap;gap:.25rem;border-bottom:1px solid #d6dbe1;margin-bottom:1rem}
[role=tab]{font:inherit;padding:.45rem .8rem;border:1px solid transparent;border-bottom:none;border-radius:6px 6px 0 0;background:none;cursor:pointer;color:#3b4652}
[role=tab][aria-selected=true]{background:#fff;border-color:#d6dbe1;color:#0b5cad;font-weight:600;margin-bottom:-1px}
button,select,input,textarea{font:inherit}
button{padding:.35rem .75rem;border:1px solid #b9c1ca;border-radius:6px;background:#f9fafb;cursor:pointer;color:#1d232a}
button.primary{background:#0b5cad;border-color:#0b5cad;color:#fff}button.danger{background:#b3261e;border-color:#b3261e;color:#fff}button:disabled{opacity:.5;cursor:default}
button:hover{border-color:#0b5cad}
:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
textarea,input[type=search]{width:100%;padding:.4rem;border:1px solid #b9c1ca;border-radius:6px;background:#fff}
select{padding:.3rem;max-width:100%}
summary{cursor:pointer;font-weight:600;margin:1rem 0 .25rem}ul.cards,#fact-list,#fact-archive-list,#reflection-list,#recent-list{list-style:none;padding:0;margin:.5rem 0}
.card{background:#fff;border:1px solid #d6dbe1;border-radius:8px;padding:.6rem .8rem;margin:.5rem 0}
.card .text{margin:0 0 .25rem}.muted{color:#5f6b77;font-size:.85rem;margin:.15rem 0}.label{font-size:.8rem;font-weight:600;color:#3b4652;display:block;margin:.25rem 0}
.row{display:flex;flex-wrap:wrap;gap:.4rem;margin-top:.4rem}.editor textarea{margin-top:.25rem}
.badge{display:inline-block;font-size:.75rem;padding:0 .4rem;border-radius:999px;background:#e3e7eb;color:#1d232a;margin-right:.3rem}
.status-confirmed,.status-promoted{background:#d7f0dc}.status-denied,.status-archived{background:#f6dada}.status-pending{background:#fdf0c8}
ul.sources{margin:.2rem 0;padding-left:1.2rem;font-size:.85rem}
table.history{border-collapse:collapse;width:100%;font-size:.8rem;table-layout:fixed;margin-top:.4rem}
table.history td,table.history th{border-bottom:1px solid #e3e7eb;padding:.2rem;text-align:left;vertical-align:top}
.alert{background:#fff3cd;border:1px solid #e0c36a;border-radius:8px;padding:.6rem .8rem;margin:.5rem 0}
.toggle{display:flex;gap:.5rem;align-items:center;margin:.5rem 0}.toggle input{width:1.2rem;height:1.2rem}
#funnel svg{width:100%;max-width:560px;height:auto;font:12px system-ui,sans-serif}#funnel .bar{fill:#0b5cad}
.msg-system{border-left:4px solid #a0a8b0}.msg-human{border-left:4px solid #0b5cad}.msg-ai{border-left:4px solid #2e8b57}
dialog{border:1px solid #d6dbe1;border-radius:8px;max-width:min(28rem,92vw)}dialog::backdrop{background:rgb(0 0 0/.35)}
@media(max-width:600px){main{padding:.5rem}[role=tab]{padding:.4rem .55rem}}`

const tab = (id: string, label: string, selected: boolean) =>
  `<button type="button" role="tab" id="tab-${id}" aria-controls="panel-${id}" aria-selected="${selected}"` +
  ` tabindex="${selected ? 0 : -1}">${label}</button>`

const panel = (id: string, body: string, hidden: boolean) =>
  `<section role="tabpanel" id="panel-${id}" aria-labelledby="tab-${id}"${hidden ? " hidden" : ""}>${body}</section>`

const recent =
  `<h2>Recent history</h2><p class="muted">The memo (its summary and its older section) and the ` +
  `messages of recent.json. Saving checks that nobody changed the file since it was loaded.</p>` +
  `<label class="label" for="memo">Memo (system summary)</label><textarea id="memo" rows="4"></textarea>` +
  `<label class="label" for="memo-older">Older (the memo's section after its <code>---</code> line; empty for ` +
  `none)</label><textarea id="memo-older" rows="3"></textarea><p id="memo-prefix" class="muted"></p>` +
  `<ul id="recent-list" aria-label="Messages"></ul><div class="row"><button type="button" id="recent-clear">` +
  `Clear messages</button><button type="button" class="primary" id="recent-save">Save</button></div>` +
  `<p id="recent-msg" role="status" aria-live="polite" class="muted"></p>` +
  `<div id="recent-conflict" class="alert" role="alert" hidden><strong>The file changed on the server since ` +
  `you loaded it.</strong> Nothing was saved. Reload to see the current version, then make your edits again. ` +
  `<button type="button" id="recent-reload">Reload</button></div>`

const facts =
  `<h2>Facts</h2><label class="label" for="fact-search">Search facts</label>` +
  `<input type="search" id="fact-search" placeholder="filter by text"><p id="fact-count" class="muted"></p>` +
  `<ul id="fact-list" aria-label="Facts"></ul><details id="fact-archive"><summary id="fact-archive-summary">` +
  `Archived facts</summary><ul id="fact-archive-list" aria-label="Archived facts"></ul></details>`

const subjects =
  `<h2>Memory by subject</h2><p class="muted">Private memory, then what the character remembers of each group ` +
  `chat, participant and group member (group-chat memory, kept apart from the private one). Forgetting a ` +
  `subject removes all of its memory from every file.</p><div id="subject-list"></div>`

const settings =
  `<h2>Settings</h2><div class="toggle"><input type="checkbox" id="powerful"><label for="powerful">Powerful ` +
  `memory</label><span id="powerful-msg" class="muted" role="status"></span></div>` +
  `<div class="toggle"><input type="checkbox" id="review"><label for="review">Auto review of recent ` +
  `history</label><span id="review-msg" class="muted" role="status"></span></div>` +
  `<h3>Funnel (last 7 days)</h3><div id="funnel"></div>`

/** The whole page. */
export const memoryBrowserPage = (): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8">` +
  `<meta name="viewport" content="width=device-width,initial-scale=1"><title>kioku · memory browser</title>` +
  `<style>${css}</style></head><body><header><h1>kioku memory browser</h1>` +
  `<label for="character">Character</label> <select id="character"></select>` +
  `<span id="status" class="muted" role="status" aria-live="polite"></span></header><main>` +
  `<div role="tablist" aria-label="Memory">` +
  tab("recent", "Recent", true) +
  tab("facts", "Facts", false) +
  tab("reflections", "Reflections", false) +
  tab("persona", "Persona", false) +
  tab("subjects", "Subjects", false) +
  tab("settings", "Settings", false) +
  `</div>` +
  panel("recent", recent, false) +
  panel("facts", facts, true) +
  panel("reflections", `<h2>Reflections</h2><ul id="reflection-list" aria-label="Reflections"></ul>`, true) +
  panel("persona", `<h2>Persona</h2><div id="persona-list"></div>`, true) +
  panel("subjects", subjects, true) +
  panel("settings", settings, true) +
  `</main><dialog id="unsaved" aria-labelledby="unsaved-title"><h2 id="unsaved-title">Unsaved changes</h2>` +
  `<p id="unsaved-text"></p><div class="row"><button type="button" class="primary" id="unsaved-stay">Keep editing` +
  `</button><button type="button" id="unsaved-discard">Discard changes</button></div></dialog>` +
  `<dialog id="forget" aria-labelledby="forget-title"><h2 id="forget-title">Forget this subject?</h2>` +
  `<p id="forget-text"></p><div class="row"><button type="button" class="primary" id="forget-keep">Keep its memory` +
  `</button><button type="button" class="danger" id="forget-confirm">Forget</button></div></dialog>` +
  `${scriptTag("memory-browser.js")}</body></html>`
