/**
 * The legacy `settings.json` (pre-persona, read-only) rendered as text for a character with an empty
 * persona: "{name} remembers:" then one section per subject with its `key: value` lines. No file, or one
 * that does not decode, renders as nothing.
 */
import { Effect, Option, Schema } from "effect"
import * as path from "node:path"
import * as ViewFile from "../store/ViewFile.js"

const Settings = Schema.Record({
  key: Schema.String,
  value: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})

const valueText = (v: unknown): string =>
  Array.isArray(v) ? v.map(String).join("、") : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)

export const render = (dir: string, name: string) =>
  ViewFile.make(Settings, path.join(dir, "settings.json")).read.pipe(
    Effect.map(
      Option.match({
        onNone: () => "",
        onSome: (settings) => {
          const sections = Object.entries(settings).flatMap(([subject, fields]) => {
            const lines = Object.entries(fields)
              .filter(([, v]) => v !== null && v !== undefined && valueText(v).trim() !== "")
              .map(([k, v]) => `- ${k}: ${valueText(v)}`)
            return lines.length === 0 ? [] : [`### ${subject}\n${lines.join("\n")}`]
          })
          return sections.length === 0 ? "" : `${name} remembers:\n${sections.join("\n\n")}`
        }
      })
    ),
    Effect.orElseSucceed(() => "")
  )
