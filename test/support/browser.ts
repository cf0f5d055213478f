/**
 * Headless Debian Chromium for browser tests, driven by playwright-core (which never downloads a browser):
 * one browser per test file, a fresh page per test, closed with the scope. An uncaught error in a page's
 * script is rethrown in the test process, where vitest reports it and fails the run.
 */
import { Effect } from "effect"
import { chromium, type Browser, type Page } from "playwright-core"
import type { RunningServer } from "./server.js"

export const CHROMIUM = "/usr/bin/chromium"

export const browser = Effect.acquireRelease(
  Effect.promise(() => chromium.launch({ executablePath: CHROMIUM, headless: true, args: ["--no-sandbox"] })),
  (b: Browser) => Effect.promise(() => b.close())
)

/** A page at `width`×`height` (default 1280×800) in a browser that lives as long as the scope. */
export const page = (size: { readonly width: number; readonly height: number } = { width: 1280, height: 800 }) =>
  Effect.gen(function* () {
    const b = yield* browser
    const p = yield* Effect.promise((): Promise<Page> => b.newPage({ viewport: size }))
    p.on("pageerror", (error) => {
      throw error
    })
    return p
  })

/** Starts a server (`start`), opens `route` on it and waits until the page expression `ready` holds. */
export const openPage = (
  start: () => Promise<RunningServer>,
  route: string,
  ready: string,
  size?: { readonly width: number; readonly height: number }
) =>
  Effect.gen(function* () {
    const server = yield* Effect.promise(start)
    const p = yield* page(size)
    yield* Effect.promise(() => p.goto(`${server.url}${route}`))
    yield* Effect.promise(() => p.waitForFunction(ready))
    return { server, page: p }
  })
