/**
 * The legacy `settings.json` (pre-persona, read-only): migrated once into persona entries
 * (`legacy_<8 hex>`, source `settings`; the master's subject (or `主人`) → `master`, the character's → `neko`, others →
 * `relationship`), and rendered as text for a character whose persona is still empty: "{name} remembers:"
 * then one section per subject with its `key: value` lines. No file, or one that does not decode, is nothing.
 */
import { Effect, Option, Schema } from "effect"
import { createHash } from "node:crypto"
import * as path from "node:path"
import * as ViewFile from "../store/ViewFile.js"

export const SettingsFile = Schema.Record({
  key: Schema.String,
  value: Schema.Record({ key: Schema.String, value: Schema.Unknown })
})

const valueText = (v: unknown): string =>
  Array.isArray(v) ? v.map(String).join("、") : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v)

const read = (dir: string) => ViewFile.make(SettingsFile, path.join(dir, "settings.json")).read

/** The persona entries a legacy settings.json migrates into, in file order. */
export const entries = (dir: string, names: { readonly character: string; readonly master: string }) =>
  read(dir).pipe(
    Effect.map((settings) =>
      Object.entries(Option.getOrElse(settings, () => ({}))).flatMap(([subject, fields]) => {
        const section =
          subject === names.master || subject === "主人"
            ? "master"
            : subject === names.character
              ? "neko"
              : "relationship"
        return Object.entries(fields)
          .filter(([, v]) => v !== null && v !== undefined && valueText(v).trim() !== "")
          .map(([k, v]) => {
            const text = `${k}: ${valueText(v)}`
            return { section, id: `legacy_${createHash("sha256").update(text).digest("hex").slice(0, 8)}`, text }
          })
      })
    ),
    Effect.orElseSucceed(() => [])
  )

export const render = (dir: string, name: string) =>
  read(dir).pipe(
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
