/**
 * What the providers share about building a request body: each history block's wire JSON made once, and the
 * body written from pieces into one buffer. The history is append-only and forRequest keeps block objects as
 * they are, so a request serializes only what is new since the last one; the rest is copying.
 */

/**
 * `make` run once per key: later calls return the string it made then. Weak keys, so a finished task's
 * blocks (and their JSON) go with it. The key must not change after its first call (history blocks do not).
 */
export function oncePer<K extends object>(make: (key: K) => string): (key: K) => string {
  const made = new WeakMap<K, string>()
  return (key) => {
    let json = made.get(key)
    if (json === undefined) {
      json = make(key)
      made.set(key, json)
    }
    return json
  }
}

/**
 * The body's pieces written into one buffer of the body's size. Sent as a chunked stream, each piece was a
 * malloc'd buffer of its own (hundreds per request), and what glibc kept of that churn grew the server by
 * tens of MiB over a long task; joined into one string first, each request left a body-sized string for the
 * next full GC. A buffer this size is mmap'd, and goes back to the system whole (npm run bench -- memory).
 */
export function bodyBytes(pieces: readonly string[]): Buffer {
  let size = 0
  for (const piece of pieces) size += Buffer.byteLength(piece, "utf8")
  const bytes = Buffer.allocUnsafeSlow(size)
  let at = 0
  for (const piece of pieces) at += bytes.write(piece, at, "utf8")
  return bytes
}

/** The headers a JSON body sent as bytes needs: the SDKs set content-type only for bodies they serialize. */
export const JSON_BODY_HEADERS = { "content-type": "application/json" } as const
