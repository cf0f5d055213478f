/**
 * The landing page at `/`: what this server is, whether it serves requests, its characters, links to the
 * memory browser, the state charts and `/health`, and how to point N.E.K.O. or the library at it. Server-rendered
 * HTML with inline CSS and no script, so it works offline and in limited mode; every name is escaped.
 */

export interface HomeView {
  readonly version: string
  /** `ready`, `initializing`, `blocked` or `reblocked` (RuntimeStatus). */
  readonly phase: string
  readonly characters: ReadonlyArray<string>
  /** The address clients use, e.g. `http://127.0.0.1:48912`. */
  readonly origin: string
  /** Signed in through the sign-in form: the header offers to sign out. */
  readonly signedIn: boolean
  /** The server asks for a token (the page was reached with a session or a bearer): examples send it. */
  readonly tokenRequired: boolean
}

export const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c)

export const css = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,sans-serif;color:#1d232a;background:#f6f7f9;overflow-wrap:anywhere}
header{padding:.75rem 1rem;background:#fff;border-bottom:1px solid #d6dbe1}h1{font-size:1.25rem;margin:0}
main{max-width:760px;margin:0 auto;padding:1rem}h2{font-size:1.05rem;margin:1.25rem 0 .5rem}
.card{background:#fff;border:1px solid #d6dbe1;border-radius:8px;padding:.75rem 1rem;margin:.5rem 0}
a{color:#0b5cad}a:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
.badge{display:inline-block;font-size:.8rem;padding:0 .5rem;border-radius:999px;background:#fdf0c8}.ok{background:#d7f0dc}
code,pre{font:13px/1.4 ui-monospace,monospace;background:#eef1f4;border-radius:4px}code{padding:0 .25rem}
pre{padding:.6rem;overflow-x:auto;white-space:pre-wrap}ul{padding-left:1.2rem}.muted{color:#5f6b77}
header form{float:right;margin:0}header button{font:inherit;padding:.15rem .7rem;border:1px solid #8a96a3;border-radius:6px;background:#fff;cursor:pointer}`

const phaseText: Readonly<Record<string, string>> = {
  ready: "ready",
  initializing: "starting up (recovering journals)",
  blocked: "blocked: waiting for an operator (POST /internal/storage/startup/continue)",
  reblocked: "blocked again by an operator"
}

export const homePage = (view: HomeView): string => {
  const ready = view.phase === "ready"
  const characters =
    view.characters.length === 0
      ? `<p class="muted">No characters yet: the first <code>/cache</code> or <code>/process</code> for a name creates one.</p>`
      : `<ul>${view.characters
          .map((n) => `<li><a href="/memory_browser?character=${encodeURIComponent(n)}">${escape(n)}</a></li>`)
          .join("")}</ul>`
  const origin = escape(view.origin)
  const bearer = view.tokenRequired ? ` -H "Authorization: Bearer $KIOKU_TOKEN"` : ""
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>kioku</title><style>${css}</style></head><body>
<header>${view.signedIn ? `<form method="post" action="/session/end"><button type="submit">Sign out</button></form>` : ""}<h1>kioku <span class="muted">${escape(view.version)}</span></h1></header>
<main>
<p>A long-term memory server for AI companion characters, speaking N.E.K.O.'s memory-server API.</p>
<div class="card" role="status">Status: <span class="badge${ready ? " ok" : ""}">${escape(phaseText[view.phase] ?? view.phase)}</span></div>
<h2>Pages</h2>
<ul>
<li><a href="/memory_browser">Memory browser</a>: each character's recent history, facts, reflections and persona</li>
<li><a href="/statecharts">State charts</a>: the lifecycle machines and where each entry stands</li>
<li><a href="/docs">API</a>: every route, its parameters and answers (<a href="/openapi.json">OpenAPI 3.1</a>)</li>
<li><a href="/health">/health</a>: the signature N.E.K.O.'s launcher checks</li>
</ul>
<h2>Characters (${view.characters.length})</h2>
${characters}
<h2>Use it</h2>
<div class="card"><p>From N.E.K.O.: run kioku on the memory server's port (48912, the default) with N.E.K.O.'s memory directory as <code>--data-dir</code>; its main server then talks to kioku as it would to its own memory server.</p>
<p>Over HTTP${view.tokenRequired ? " (this server asks for its token: put it in <code>KIOKU_TOKEN</code>)" : ""}:</p>
<pre>curl -s -X POST ${origin}/cache/Tian -H 'content-type: application/json'${bearer} \\
  -d '{"input_history":"[{\\"role\\":\\"user\\",\\"content\\":\\"I adopted a cat named Mochi\\"}]"}'
curl -s${bearer} ${origin}/new_dialog/Tian</pre>
<p>As a library, in the same process as your app:</p>
<pre>import { createMemoryRuntime } from "kioku"
const memory = await createMemoryRuntime({ dataDir: "./memory" })</pre></div>
</main></body></html>`
}
