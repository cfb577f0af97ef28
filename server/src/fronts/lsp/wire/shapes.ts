/**
 * A minimal structural checker for the params of standard LSP messages. Only the fields our handlers (and
 * vscode-jsonrpc's own $/cancelRequest and $/progress handling) dereference are checked; everything else
 * passes through untouched. zod is not used here on purpose: this runs before `initialize` is answered,
 * and zod is kept off that path (cold start); agent/* params are zod-checked once the services load.
 */
export type Check = (value: unknown, path: string) => string | undefined

function kind(value: unknown): string {
  return value === null ? "null" : Array.isArray(value) ? "array" : typeof value
}

const typed =
  (type: string, test: (v: unknown) => boolean): Check =>
  (v, p) =>
    test(v) ? undefined : `${p}: expected ${type}, received ${kind(v)}`

export const str = typed("string", (v) => typeof v === "string")
export const int = typed("integer", (v) => Number.isInteger(v))
/** LSP's `integer`: a 32-bit signed whole number (a process id beyond it would end the server, see lsp-params). */
export const int32 = typed(
  "integer from -2147483648 to 2147483647",
  (v) => Number.isInteger(v) && (v as number) >= -(2 ** 31) && (v as number) < 2 ** 31,
)
export const any: Check = () => undefined
export const nul = typed("null", (v) => v === null)

export const opt =
  (check: Check): Check =>
  (v, p) =>
    v === undefined ? undefined : check(v, p)

export const oneOf =
  (...checks: Check[]): Check =>
  (v, p) => {
    const failures = checks.map((c) => c(v, p))
    return failures.includes(undefined) ? undefined : failures.join(" or ")
  }

export const arr =
  (item: Check): Check =>
  (v, p) => {
    if (!Array.isArray(v)) return `${p}: expected array, received ${kind(v)}`
    for (let i = 0; i < v.length; i++) {
      const failure = item(v[i], `${p}[${i}]`)
      if (failure) return failure
    }
    return undefined
  }

export const obj =
  (fields: Record<string, Check> = {}): Check =>
  (v, p) => {
    if (!v || typeof v !== "object" || Array.isArray(v)) return `${p}: expected object, received ${kind(v)}`
    for (const [key, check] of Object.entries(fields)) {
      const failure = check((v as Record<string, unknown>)[key], p ? `${p}.${key}` : key)
      if (failure) return failure
    }
    return undefined
  }
