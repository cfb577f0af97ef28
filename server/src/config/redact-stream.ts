import { longSecrets, redactPatterns, redactValues } from "./redact"

/** The longest tail held back while it could still grow into an auth header or a key-shaped token. */
const MAX_PATTERN_TAIL = 512
/** A tail that may be the start of something redactPatterns would replace, if more text followed. */
const OPEN_PATTERN = /(?:(?:authorization|x-api-key)["']?\s*[:=]?\s*["']?(?:bearer\s*)?[^\s"',}]*|\bsk-[A-Za-z0-9_-]*)$/i
const PATTERN_WORDS = ["authorization", "x-api-key", "sk-"]
/** Enough of the end to hold the longest of PATTERN_WORDS. */
const PATTERN_WORDS_TAIL = 16

/**
 * Redacts text that arrives in pieces (a command's output): a secret printed by a command may be split
 * across two chunks, and redacting each chunk alone would pass both halves. Each push returns what is safe
 * to show now; the tail that could be the start of a secret (a prefix of a held key, an unfinished
 * `Authorization: …` or `sk-…`) is held back until the next push proves otherwise, or until end().
 */
export class StreamRedactor {
  private carry = ""
  private readonly secrets = longSecrets()

  push(text: string): string {
    // Whole secrets first, so a held-back tail never cuts through one that is already complete.
    const joined = redactValues(this.carry + text, this.secrets)
    const hold = this.heldLength(joined)
    this.carry = joined.slice(joined.length - hold)
    return redactPatterns(joined.slice(0, joined.length - hold))
  }

  /** The rest, at the end of the stream. */
  end(): string {
    const rest = redactPatterns(redactValues(this.carry, this.secrets))
    this.carry = ""
    return rest
  }

  /**
   * How much of `text`, a stream's whole text so far (a tool call's partial arguments), can be shown
   * without its end being the start of a secret that more text would complete.
   */
  safeLength(text: string): number {
    return text.length - this.heldLength(text)
  }

  private heldLength(text: string): number {
    let hold = 0
    for (const { value } of this.secrets) hold = Math.max(hold, prefixOverlap(text, value))
    const tail = text.slice(-PATTERN_WORDS_TAIL).toLowerCase()
    for (const word of PATTERN_WORDS) hold = Math.max(hold, prefixOverlap(tail, word))
    const open = OPEN_PATTERN.exec(text.slice(-MAX_PATTERN_TAIL))
    if (open && open[0].length < MAX_PATTERN_TAIL) hold = Math.max(hold, open[0].length)
    return hold
  }
}

/** The length of the longest end of `text` that is a proper beginning of `secret`. */
function prefixOverlap(text: string, secret: string): number {
  for (let n = Math.min(secret.length - 1, text.length); n > 0; n--) if (secret.startsWith(text.slice(text.length - n))) return n
  return 0
}
