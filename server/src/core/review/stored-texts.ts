/**
 * The texts of a stored review (baselines, agent texts, a reject's before and after) kept as the bytes read
 * from the store, each decoded only when something reads it. A first listing after a restart needs none of
 * them for files still as the agent left them (their stored hunks are checked against the bytes), and
 * decoding a thousand files' texts up front was most of that listing's time (with the garbage it made).
 */
/** Where equals() encodes the text it compares (grown as needed): one buffer, not one per file of a listing. */
let scratch = Buffer.allocUnsafe(64 * 1024)

export class StoredTexts {
  private readonly decoded = new Map<number, string>()
  private readonly views = new Map<number, Buffer>()

  constructor(
    private readonly body: Buffer,
    private readonly spans: readonly (readonly [number, number])[],
  ) {}

  /** Whether `index` names a text of this store. */
  has(index: unknown): index is number {
    return typeof index === "number" && Number.isInteger(index) && index >= 0 && index < this.spans.length
  }

  text(index: number): string {
    let text = this.decoded.get(index)
    if (text === undefined) {
      const [start, end] = this.spans[index]!
      text = this.body.toString("utf8", start, end)
      this.decoded.set(index, text)
    }
    return text
  }

  /** The text's bytes (the same view each time, so callers can tell it is the same text by identity). */
  bytes(index: number): Buffer {
    let bytes = this.views.get(index)
    if (!bytes) {
      const [start, end] = this.spans[index]!
      bytes = this.body.subarray(start, end)
      this.views.set(index, bytes)
    }
    return bytes
  }

  /** Whether `text` is text `index`, compared as bytes (nothing decoded; `text` encoded into a reused buffer). */
  equals(index: number, text: string | undefined): boolean {
    if (text === undefined) return false
    const bytes = this.bytes(index)
    // UTF-8 takes one to three bytes per UTF-16 unit (a surrogate pair: four for two).
    if (text.length > bytes.length || text.length * 3 < bytes.length) return false
    if (scratch.length < text.length * 3) scratch = Buffer.allocUnsafe(text.length * 3)
    const length = scratch.write(text, 0, "utf8")
    return length === bytes.length && bytes.equals(scratch.subarray(0, length))
  }
}

/** A text field still holding a stored text: the store and its index. */
export interface StoredRef {
  texts: StoredTexts
  index: number
}

const refs = new WeakMap<object, Map<string, StoredRef>>()

/**
 * Makes `owner[key]` the stored text `index`, decoded on first read. Assigning the field replaces it as
 * for any property (and it is no longer the stored text); spreading or serialising the owner reads it.
 */
export function defineStoredText(owner: object, key: string, texts: StoredTexts, index: number): void {
  let fields = refs.get(owner)
  if (!fields) refs.set(owner, (fields = new Map()))
  const ref: StoredRef = { texts, index }
  fields.set(key, ref)
  let assigned: string | undefined
  Object.defineProperty(owner, key, {
    configurable: true,
    enumerable: true,
    get: () => (fields.get(key) === ref ? texts.text(index) : assigned),
    set: (value: string | undefined) => {
      if (fields.get(key) === ref) fields.delete(key)
      assigned = value
    },
  })
}

/** The stored text `owner[key]` still holds (undefined once assigned, or for an ordinary field). */
export function storedTextOf(owner: object, key: string): StoredRef | undefined {
  return refs.get(owner)?.get(key)
}

/** Whether `owner[key]` holds a text, without decoding a stored one. */
export function holdsText(owner: object, key: string): boolean {
  return storedTextOf(owner, key) !== undefined || (owner as Record<string, unknown>)[key] !== undefined
}

/**
 * A shallow copy of `owner` whose fields holding stored texts hold the same stored texts, still undecoded
 * (a spread would decode each: a reject-all copies a thousand files' entries for its undo).
 */
export function copyKeepingStoredTexts<T extends object>(owner: T): T {
  const fields = refs.get(owner)
  const copy = {} as T
  for (const key of Object.keys(owner)) {
    const ref = fields?.get(key)
    if (ref) defineStoredText(copy, key, ref.texts, ref.index)
    else (copy as Record<string, unknown>)[key] = (owner as Record<string, unknown>)[key]
  }
  return copy
}

/** Whether `a[keyA]` and `b[keyB]` hold the same text (or both none), comparing stored texts as bytes, undecoded. */
export function sameText(a: object, keyA: string, b: object, keyB: string): boolean {
  const refA = storedTextOf(a, keyA)
  const refB = storedTextOf(b, keyB)
  if (refA && refB)
    return (refA.texts === refB.texts && refA.index === refB.index) || refA.texts.bytes(refA.index).equals(refB.texts.bytes(refB.index))
  if (refA) return refA.texts.equals(refA.index, (b as Record<string, string | undefined>)[keyB])
  if (refB) return refB.texts.equals(refB.index, (a as Record<string, string | undefined>)[keyA])
  return (a as Record<string, unknown>)[keyA] === (b as Record<string, unknown>)[keyB]
}

/** `to[key]` = `from[fromKey]`, a stored text staying stored (undecoded). */
export function assignText(to: object, key: string, from: object, fromKey: string): void {
  const ref = storedTextOf(from, fromKey)
  if (ref) defineStoredText(to, key, ref.texts, ref.index)
  else (to as Record<string, unknown>)[key] = (from as Record<string, unknown>)[fromKey]
}
