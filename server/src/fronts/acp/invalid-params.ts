/**
 * The ACP SDK answers params that fail its schema with InvalidParams whose message is only "Invalid params"
 * and whose data is zod's error tree (`{ _errors: [], cwd: { _errors: ["expected string"] } }`). A client
 * developer (and a log line) should read what was wrong from the message itself, as on the LSP front:
 * "Invalid params: cwd: expected string, received number". The data stays as the SDK sent it.
 */

const INVALID_PARAMS = -32602
/** How many wrong fields the message names, and how long one field's text may be. */
const MAX_FIELDS = 5
const MAX_FIELD_TEXT = 200

type ErrorTree = { _errors?: unknown } & Record<string, unknown>

/** The message of an SDK schema failure made readable; any other message unchanged. */
export function withReadableInvalidParams<M extends object>(message: M): M {
  const error = (message as { error?: { code?: unknown; message?: unknown; data?: unknown } }).error
  if (!error || error.code !== INVALID_PARAMS || error.message !== "Invalid params" || !error.data || typeof error.data !== "object")
    return message
  const fields: string[] = []
  collect(error.data as ErrorTree, "", fields)
  if (!fields.length) return message
  const more = fields.length > MAX_FIELDS ? ` (and ${fields.length - MAX_FIELDS} more)` : ""
  return { ...message, error: { ...error, message: `Invalid params: ${fields.slice(0, MAX_FIELDS).join("; ")}${more}` } }
}

function collect(tree: ErrorTree, path: string, out: string[]): void {
  const errors = Array.isArray(tree._errors) ? [...new Set(tree._errors.filter((e): e is string => typeof e === "string"))] : []
  if (errors.length) {
    const text = errors.map((e) => e.replace(/^Invalid input: /, "")).join(" or ")
    out.push(`${path || "params"}: ${text.length > MAX_FIELD_TEXT ? `${text.slice(0, MAX_FIELD_TEXT)}…` : text}`)
  }
  for (const [key, child] of Object.entries(tree)) {
    if (key === "_errors" || !child || typeof child !== "object") continue
    collect(child as ErrorTree, path ? `${path}.${key}` : key, out)
  }
}
