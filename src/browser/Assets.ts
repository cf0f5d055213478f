/**
 * The pages' bundled scripts (web/, built by scripts/build.mjs into dist/web/): their names, the `<script>`
 * tag that loads one from kioku itself (no CDN, works offline), and where the built files are — next to the
 * running bundle (dist/kioku.mjs, dist/lib.mjs) or, when kioku runs from its sources, in the repository's
 * dist/.
 */
import { existsSync } from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

export const assetFiles = ["memory-browser.js", "statecharts.js"] as const
export type AssetFile = (typeof assetFiles)[number]

const candidates = [new URL("./web/", import.meta.url), new URL("../../dist/web/", import.meta.url)]

/** The folder holding the built page scripts, if any. */
export const assetDir = (): string | undefined =>
  candidates.map((u) => fileURLToPath(u)).find((dir) => existsSync(path.join(dir, assetFiles[0])))

export const isAssetFile = (file: string): file is AssetFile => assetFiles.some((f) => f === file)

/** The `<script>` tag of one asset. */
export const scriptTag = (file: AssetFile): string => `<script src="/assets/${file}" defer></script>`
