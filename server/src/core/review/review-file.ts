import type { PackedHunks } from "./stored-hunks"
import { defineStoredText, StoredTexts, storedTextOf } from "./stored-texts"

/**
 * A review's file on disk: a first line naming the format, one line of JSON with every text replaced by its
 * number, then the texts' bytes one after another (each stored once). Reading it parses only the JSON
 * line; the texts stay bytes until something reads them (stored-texts.ts). A file of the previous format
 * (one JSON document, texts inline) is read as before.
 */
const MAGIC = Buffer.from("agent-lsp review 2\n")

/** What a review file holds, texts as strings (or fields defined to decode from the file's bytes). */
export interface ReviewDocument {
  files: Record<string, object>
  lastReject?: object[]
  hunks: Record<string, PackedHunks>
  /** A review file's id, new at each save. */
  generation?: string
  /** A reject's record (review-store.ts): the generation of the review file it completes. */
  of?: string
}

/** The fields that hold texts: each file's baseline and agentText, each reject's before and after and its entry's texts. */
function textFields(
  doc: { files: Record<string, object>; lastReject?: unknown },
  visit: (owner: Record<string, unknown>, key: string) => void,
): void {
  for (const entry of Object.values(doc.files))
    if (entry && typeof entry === "object") for (const key of ["baseline", "agentText"]) visit(entry as Record<string, unknown>, key)
  if (!Array.isArray(doc.lastReject)) return
  for (const reject of doc.lastReject as Record<string, unknown>[]) {
    if (!reject || typeof reject !== "object") continue
    for (const key of ["before", "after"]) visit(reject, key)
    const tracked = reject.tracked as Record<string, unknown> | undefined
    if (tracked && typeof tracked === "object") for (const key of ["baseline", "agentText"]) visit(tracked, key)
  }
}

/** The review as bytes: texts still as read from the previous file are copied as bytes, without decoding them. */
export function encodeReview(doc: ReviewDocument): Buffer {
  const chunks: Buffer[] = []
  const spans: [number, number][] = []
  let size = 0
  const byText = new Map<string, { text: string; index: number }[]>()
  const byRef = new Map<StoredTexts, Map<number, number>>()
  const add = (bytes: Buffer): number => {
    spans.push([size, size + bytes.length])
    chunks.push(bytes)
    size += bytes.length
    return spans.length - 1
  }
  const indexOf = (owner: object, key: string): number | undefined => {
    const ref = storedTextOf(owner, key)
    if (ref) {
      let known = byRef.get(ref.texts)
      if (!known) byRef.set(ref.texts, (known = new Map()))
      let index = known.get(ref.index)
      if (index === undefined) known.set(ref.index, (index = add(ref.texts.bytes(ref.index))))
      return index
    }
    const text = (owner as Record<string, unknown>)[key]
    if (typeof text !== "string") return undefined
    // Keyed by the length and both ends, then compared whole: a Map keyed by the texts themselves hashed
    // every byte of every text (megabytes for a reject-all) to find the few that repeat.
    const sketch = `${text.length}:${text.slice(0, 48)}\u0000${text.slice(-48)}`
    const candidates = byText.get(sketch) ?? []
    const same = candidates.find((known) => known.text === text)
    if (same) return same.index
    const index = add(Buffer.from(text, "utf8"))
    byText.set(sketch, [...candidates, { text, index }])
    return index
  }
  // A copy of the document with numbers in place of texts (the review's own objects are left as they are).
  const copy = (owner: object): Record<string, unknown> => {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(owner)) if (!TEXT_KEYS.has(key)) out[key] = (owner as Record<string, unknown>)[key]
    for (const key of TEXT_KEYS)
      if (key in owner) {
        const index = indexOf(owner, key)
        if (index !== undefined) out[key] = index
      }
    return out
  }
  const files = Object.fromEntries(Object.entries(doc.files).map(([path, entry]) => [path, copy(entry)]))
  const lastReject = doc.lastReject?.map((reject) => {
    const out = copy(reject)
    const tracked = (reject as { tracked?: object }).tracked
    if (tracked) out.tracked = copy(tracked)
    return out
  })
  const ids = { ...(doc.generation ? { generation: doc.generation } : {}), ...(doc.of ? { of: doc.of } : {}) }
  const header = JSON.stringify({ files, ...(lastReject ? { lastReject } : {}), hunks: doc.hunks, ...ids, texts: spans })
  return Buffer.concat([MAGIC, Buffer.from(`${header}\n`, "utf8"), ...chunks])
}

const TEXT_KEYS = new Set(["baseline", "agentText", "before", "after"])

/**
 * The document in `bytes` (either format), or undefined when it is not a review. A text field whose number
 * names no text makes its file's entry (or its reject) unusable: it is dropped, never read as "no text"
 * (for a baseline that would mean "created", and a reject would delete the file).
 */
export function decodeReview(bytes: Buffer): (Omit<ReviewDocument, "hunks"> & { hunks?: unknown }) | undefined {
  if (!bytes.subarray(0, MAGIC.length).equals(MAGIC)) {
    const parsed = JSON.parse(bytes.toString("utf8")) as unknown
    return isDocument(parsed) ? parsed : undefined
  }
  const end = bytes.indexOf(10, MAGIC.length)
  if (end < 0) return undefined
  const parsed = JSON.parse(bytes.toString("utf8", MAGIC.length, end)) as unknown
  if (!isDocument(parsed)) return undefined
  const header = parsed as { files: Record<string, object>; lastReject?: object[]; texts?: unknown; hunks?: unknown }
  const body = bytes.subarray(end + 1)
  const spans = Array.isArray(header.texts) ? header.texts : []
  const valid = spans.every(
    (s: unknown) =>
      Array.isArray(s) && Number.isSafeInteger(s[0]) && Number.isSafeInteger(s[1]) && 0 <= s[0] && s[0] <= s[1] && s[1] <= body.length,
  )
  if (!valid) return undefined
  const texts = new StoredTexts(body, spans as [number, number][])
  const broken = new Set<object>()
  textFields(header, (owner, key) => {
    if (!(key in owner)) return
    const index: unknown = owner[key]
    if (texts.has(index)) defineStoredText(owner, key, texts, index)
    else broken.add(owner)
  })
  for (const [path, entry] of Object.entries(header.files))
    if (!entry || typeof entry !== "object" || broken.has(entry)) delete header.files[path]
  if (Array.isArray(header.lastReject))
    header.lastReject = header.lastReject.filter((r: { tracked?: object }) => !broken.has(r) && !(r?.tracked && broken.has(r.tracked)))
  const { texts: _, ...doc } = header
  return doc as ReturnType<typeof decodeReview>
}

function isDocument(value: unknown): value is { files: Record<string, object>; lastReject?: object[] } {
  const doc = value as { files?: unknown } | null
  return !!doc && typeof doc === "object" && !!doc.files && typeof doc.files === "object" && !Array.isArray(doc.files)
}
