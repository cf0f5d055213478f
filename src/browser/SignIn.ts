/**
 * The sign-in form `/` shows when an auth token is set and the browser has no session: one password field
 * posted to `/session` (form-urlencoded), the page to return to, and the error of a failed attempt.
 * Server-rendered with the landing page's inline CSS and no script; every value is escaped.
 */
import { css, escape } from "./Home.js"

export interface SignInView {
  readonly version: string
  /** The same-origin path to open after signing in. */
  readonly next: string
  readonly error: string | undefined
}

const formCss = `
form.card{display:grid;gap:.5rem;max-width:420px}label{font-weight:600}
input{font:inherit;padding:.4rem .5rem;border:1px solid #8a96a3;border-radius:6px}
input:focus-visible,button:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
button{font:inherit;padding:.4rem .9rem;border:1px solid #0b5cad;border-radius:6px;background:#0b5cad;color:#fff;justify-self:start;cursor:pointer}
.error{color:#a1260d;margin:0}`

export const signInPage = (view: SignInView): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>kioku: sign in</title><style>${css}${formCss}</style></head><body>
<header><h1>kioku <span class="muted">${escape(view.version)}</span></h1></header>
<main>
<p>This server is protected by an auth token. Enter it to open the memory browser and the state charts in this browser.</p>
<form class="card" method="post" action="/session">
<label for="token">Auth token</label>
<input id="token" name="token" type="password" autocomplete="current-password" required autofocus${view.error === undefined ? "" : ' aria-describedby="signin-error"'}>
<input type="hidden" name="next" value="${escape(view.next)}">
${view.error === undefined ? "" : `<p id="signin-error" class="error" role="alert">${escape(view.error)}</p>`}
<button type="submit">Sign in</button>
</form>
<p class="muted">API clients keep sending <code>Authorization: Bearer &lt;token&gt;</code>; the session cookie is for this browser only.</p>
</main></body></html>`
