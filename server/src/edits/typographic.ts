/**
 * Typographic punctuation a model tends to write as ASCII (or the reverse): dashes and hyphens,
 * curly quotes, non-breaking and other odd spaces. Codex's apply_patch reads them as ASCII in its
 * last matching pass; so do we, for apply_patch.
 */
const TO_ASCII: Record<string, string> = {}
for (const c of "\u2010\u2011\u2012\u2013\u2014\u2015\u2212") TO_ASCII[c] = "-"
for (const c of "\u2018\u2019\u201A\u201B") TO_ASCII[c] = "'"
for (const c of "\u201C\u201D\u201E\u201F") TO_ASCII[c] = '"'
for (const c of "\u00A0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200A\u202F\u205F\u3000") TO_ASCII[c] = " "

const TYPOGRAPHIC = new RegExp(`[${Object.keys(TO_ASCII).join("")}]`, "g")

/** `text` with each typographic dash, quote and space replaced by its ASCII counterpart. */
export function asciiPunctuation(text: string): string {
  return text.replace(TYPOGRAPHIC, (c) => TO_ASCII[c]!)
}
