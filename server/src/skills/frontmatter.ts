import { parse } from "yaml"

/** A markdown file split into its YAML frontmatter (parsed) and the body after it, verbatim. */
export type Frontmatter = { ok: true; data: Record<string, unknown>; body: string } | { ok: false; reason: string }

/**
 * Splits `---\n<yaml>\n---\n<body>`. The delimiters are whole lines (a BOM and CRLF line ends are
 * accepted); the YAML between them goes through the `yaml` parser, never a pattern. A file without a
 * frontmatter block has empty data and the whole text as body.
 */
export function splitFrontmatter(text: string): Frontmatter {
  const source = text.replace(/^\uFEFF/, "")
  const lines = source.split("\n")
  if (lines[0]?.replace(/\r$/, "") !== "---") return { ok: true, data: {}, body: source }
  const close = lines.findIndex((line, i) => i > 0 && line.replace(/\r$/, "") === "---")
  if (close < 0) return { ok: false, reason: "the frontmatter starts with --- but has no closing --- line" }
  let data: unknown
  try {
    data = parse(lines.slice(1, close).join("\n"))
  } catch (error) {
    return { ok: false, reason: `the frontmatter is not valid YAML (${(error as Error).message.split("\n", 1)[0]})` }
  }
  if (data === null || data === undefined) data = {}
  if (typeof data !== "object" || Array.isArray(data)) return { ok: false, reason: "the frontmatter is not a YAML mapping" }
  return { ok: true, data: data as Record<string, unknown>, body: lines.slice(close + 1).join("\n") }
}

/** A trimmed non-empty string field, else undefined. */
export function stringField(data: Record<string, unknown>, key: string): string | undefined {
  const value = data[key]
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined
}
