/**
 * Reading an OpenClaw or Hermes workspace into import candidates, by the rules of N.E.K.O.'s external Markdown
 * import: `USER.md` → `master` persona, `SOUL.md` → `neko` persona, `MEMORY.md` → `master` facts (any depth),
 * `memory/` or `memories/YYYY-MM-DD[-slug].md` → dated facts. Markdown is data: headings give a breadcrumb
 * (prefixed to the text unless it already says it), list items and paragraphs become entries, fenced code and
 * HTML comments are dropped, Hermes' `§` lines delimit entries (user, memory and daily files), an entry over
 * 8000 characters is cut at a line or sentence end. Duplicates within an import are dropped; lines that look
 * like prompt injection are counted as warnings (still imported as data).
 */
import { isDate, MAX_CANDIDATE_CHARS, MAX_CANDIDATES, type Candidate } from "../facts/ExternalImport.js"

export const MAX_FILE_BYTES = 2 * 1024 * 1024
export const MAX_TOTAL_BYTES = 8 * 1024 * 1024
const MAX_SECTION_CHARS = 500

export interface SourceFile {
  readonly path: string
  readonly content: string
}
export type Kind = "user" | "soul" | "memory" | "daily"

const dailyPath = /^memor(?:y|ies)\/(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$/i
const dailyName = /^(\d{4}-\d{2}-\d{2})(?:-[^/]+)?\.md$/i
const heading = /^\s{0,3}(#{1,6})\s+(.+?)\s*#*\s*$/
const listItem = /^\s{0,3}(?:[-+*]|\d+[.)])\s+(.+?)\s*$/
const field = /^\*{0,2}([^:*]{1,80})\*{0,2}\s*:\s*(.+)$/
const delimiter = /^\s*§\s*$/m
const delimiterAll = /^\s*§\s*$/gm
const injection = [
  /^\s*(?:system|developer|assistant|user)\s*[:：]/im,
  /<\|(?:im_start|im_end|endoftext)\|>/i,
  /\b(?:ignore|disregard)\b.{0,40}\b(?:previous|prior|above)\b.{0,30}\b(?:instructions?|prompts?|rules?)\b/i,
  /(?:忽略|无视|無視|不要理会|不要理會)(?:以上|上述|之前).{0,12}(?:指令|提示|规则|規則|设定|設定)/
]

/** The kind and date of a workspace file, or undefined when the import does not read it. */
export const classify = (file: string): { readonly kind: Kind; readonly date: string | null } | undefined => {
  const parts = file.split("/").filter((p) => p !== "" && p !== ".")
  const base = parts[parts.length - 1] ?? ""
  const upper = base.toUpperCase()
  if (upper === "USER.MD") return { kind: "user", date: null }
  if (upper === "SOUL.MD") return { kind: "soul", date: null }
  if (upper === "MEMORY.MD") return { kind: "memory", date: null }
  const joined = parts.join("/")
  const lower = joined.toLowerCase()
  const marker = Math.max(lower.lastIndexOf("/memory/"), lower.lastIndexOf("/memories/"))
  const relative = marker >= 0 ? joined.slice(marker + 1) : joined
  const m = dailyPath.exec(relative) ?? (parts.length === 1 ? dailyName.exec(base) : null)
  return m?.[1] !== undefined ? { kind: "daily", date: m[1] } : undefined
}

/** Hermes when a path is under `.hermes` or `memories/`, or a file has a `§` delimiter line; else OpenClaw. */
export const detectFormat = (files: ReadonlyArray<SourceFile>): "openclaw" | "hermes" =>
  files.some((f) => f.path.toLowerCase().includes(".hermes") || `/${f.path.toLowerCase()}`.includes("/memories/")) ||
  files.some((f) => delimiter.test(f.content))
    ? "hermes"
    : "openclaw"

const clean = (text: string) => {
  const t = text.trim()
  const f = field.exec(t)
  const joined = f?.[1] !== undefined && f[2] !== undefined ? `${f[1].trim()}: ${f[2].trim()}` : t
  return joined
    .replace(/<!--[\s\S]*?-->/g, "")
    .split("\n")
    .map((l) => l.trimEnd())
    .join("\n")
    .trim()
}

const cut = (text: string): Array<string> => {
  const out: Array<string> = []
  let rest = text
  while (rest.length > 0) {
    let end = Math.min(MAX_CANDIDATE_CHARS, rest.length)
    if (end < rest.length) {
      const at = Math.max(rest.lastIndexOf("\n", end), rest.lastIndexOf(". ", end))
      if (at >= MAX_CANDIDATE_CHARS / 2) end = at + 1
    }
    out.push(rest.slice(0, end).trim())
    rest = rest.slice(end).trim()
  }
  return out.filter((p) => p !== "")
}

const isFence = (line: string) => /^\s*(```|~~~)/.test(line)
const withoutFences = (text: string) => {
  let fenced = false
  return text
    .split("\n")
    .filter((l) => (isFence(l) ? ((fenced = !fenced), false) : !fenced))
    .join("\n")
}

/** Entries `{section, text}` of one Markdown text. */
export const entries = (text: string, hermes: boolean): Array<{ section: string; text: string }> => {
  if (hermes) {
    const stripped = withoutFences(text)
    if (delimiter.test(stripped)) {
      return stripped.split(delimiterAll).flatMap((block) => cut(clean(block)).map((t) => ({ section: "", text: t })))
    }
  }
  const out: Array<{ section: string; text: string }> = []
  const path: Array<string> = []
  let paragraph: Array<string> = []
  let fenced = false
  const push = (raw: string) => {
    for (const t of cut(clean(raw))) out.push({ section: path.join(" / "), text: t })
  }
  const flush = () => {
    if (paragraph.length > 0) push(paragraph.join("\n"))
    paragraph = []
  }
  for (const raw of text.split("\n")) {
    const line = raw.trimEnd()
    if (isFence(line)) {
      fenced = !fenced
      continue
    }
    if (fenced) continue
    const h = heading.exec(line)
    if (h?.[1] !== undefined && h[2] !== undefined) {
      flush()
      path.splice(h[1].length - 1)
      path.push(clean(h[2]))
      continue
    }
    const item = listItem.exec(line)
    if (item?.[1] !== undefined) {
      flush()
      push(item[1])
      continue
    }
    if (line.trim() === "") flush()
    else paragraph.push(line)
  }
  flush()
  return out
}

const withSection = (section: string, text: string) => {
  const s = section.slice(0, MAX_SECTION_CHARS)
  if (s === "" || text.toLowerCase().includes(s.toLowerCase())) return text
  return `${`${s}: `.slice(0, Math.max(0, MAX_CANDIDATE_CHARS - text.length))}${text}`
}
const key = (text: string) => text.normalize("NFKC").toLowerCase().split(/\s+/).filter(Boolean).join(" ")

export class WorkspaceError extends Error {}

export interface Parsed {
  readonly format: "openclaw" | "hermes"
  readonly files: ReadonlyArray<{ readonly path: string; readonly candidates: ReadonlyArray<Candidate> }>
  readonly warnings: number
}

/** The candidates of each supported file, in file order; throws `WorkspaceError` for an unusable workspace. */
export const parseWorkspace = (files: ReadonlyArray<SourceFile>, requested?: "openclaw" | "hermes"): Parsed => {
  const format = requested ?? detectFormat(files)
  const seen = new Set<string>()
  let total = 0
  let warnings = 0
  const out: Array<{ path: string; candidates: Array<Candidate> }> = []
  for (const file of files) {
    const c = classify(file.path)
    if (c === undefined) continue
    if (c.date !== null && !isDate(c.date)) throw new WorkspaceError(`Invalid daily-memory date in path: ${file.path}`)
    const target = c.kind === "user" || c.kind === "soul" ? "persona" : "facts"
    const entity = c.kind === "soul" ? "neko" : "master"
    const candidates: Array<Candidate> = []
    for (const e of entries(file.content, format === "hermes" && c.kind !== "soul")) {
      const text = withSection(e.section, clean(e.text))
      const k = `${target}\u0000${entity}\u0000${key(text)}`
      if (text === "" || seen.has(k)) continue
      seen.add(k)
      if (injection.some((p) => p.test(text))) warnings++
      candidates.push({
        text,
        entity,
        target,
        source_file: file.path,
        source_section: e.section.slice(0, MAX_SECTION_CHARS),
        event_date: c.date
      })
      if (++total > MAX_CANDIDATES) throw new WorkspaceError("External memory contains too many entries")
    }
    out.push({ path: file.path, candidates })
  }
  if (out.length === 0) {
    throw new WorkspaceError("No supported USER.md, SOUL.md, MEMORY.md, or memory(ies)/YYYY-MM-DD*.md files found")
  }
  if (total === 0) throw new WorkspaceError("Supported Markdown files did not contain importable text")
  return { format, files: out, warnings }
}
