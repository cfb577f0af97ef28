/**
 * A text as lines plus the line ending after each one, so edits keep untouched lines byte for byte
 * (CRLF files stay CRLF, a file without a final newline keeps none).
 */
export interface TextLines {
  lines: string[]
  /** eols[i] is what follows lines[i]: "\n", "\r\n" or "" (the last line). */
  eols: string[]
  /** The ending new lines get: the file's most common one. */
  eol: "\n" | "\r\n"
}

export function splitLines(text: string): TextLines {
  const lines: string[] = []
  const eols: string[] = []
  let crlf = 0
  let lf = 0
  let start = 0
  for (;;) {
    const nl = text.indexOf("\n", start)
    if (nl === -1) {
      lines.push(text.slice(start))
      eols.push("")
      break
    }
    if (nl > start && text.charCodeAt(nl - 1) === 13) {
      lines.push(text.slice(start, nl - 1))
      eols.push("\r\n")
      crlf++
    } else {
      lines.push(text.slice(start, nl))
      eols.push("\n")
      lf++
    }
    start = nl + 1
  }
  return { lines, eols, eol: crlf > lf ? "\r\n" : "\n" }
}

/** "\r\n" when most line breaks of `text` are CRLF. */
export function detectEol(text: string): "\n" | "\r\n" {
  return splitLines(text).eol
}

/** Text written by the model, with any CRLF turned into LF. */
export function toLf(text: string): string {
  return text.includes("\r") ? text.replace(/\r\n?/g, "\n") : text
}

/** Converts LF text to the given line ending. */
export function withEol(text: string, eol: "\n" | "\r\n"): string {
  return eol === "\n" ? text : toLf(text).replace(/\n/g, "\r\n")
}
