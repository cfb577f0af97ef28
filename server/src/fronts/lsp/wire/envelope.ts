/**
 * JSON-RPC 2.0's rules for the envelope of a message that parsed as JSON (section 4 and 5 of the spec): what
 * is not a valid Request object is InvalidRequest (-32600), answered with the request's id where it has a
 * usable one, else with id null. vscode-jsonrpc would only log such a message (echoing all of it into a
 * window/logMessage) and leave the client waiting for an answer that never comes.
 */

/** What is wrong with a message, as the error the server answers it with. */
export interface EnvelopeProblem {
  code: number
  reason: string
  /** The id to answer with: the message's own when it is usable, else null. */
  id: string | number | null
}

const INVALID_REQUEST = -32600

/** A request or response id as JSON-RPC allows it (null only in responses). */
function usableId(id: unknown): id is string | number {
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id))
}

/** Undefined for a well-formed request, notification or response; else why it is not one. */
export function envelopeProblem(message: unknown): EnvelopeProblem | undefined {
  const invalid = (reason: string, id: unknown = null): EnvelopeProblem => ({
    code: INVALID_REQUEST,
    reason,
    id: usableId(id) ? id : null,
  })
  if (Array.isArray(message))
    return invalid("JSON-RPC batches are not supported by LSP: send each message in a Content-Length frame of its own")
  if (!message || typeof message !== "object" || (message as { jsonrpc?: unknown }).jsonrpc !== "2.0")
    return invalid('the message is not a JSON-RPC 2.0 object (an object with "jsonrpc": "2.0")')
  const m = message as Record<string, unknown>
  const hasId = Object.hasOwn(m, "id")
  if (Object.hasOwn(m, "method")) {
    if (typeof m.method !== "string") return invalid("the method must be a string", m.id)
    if (hasId && !usableId(m.id)) return invalid(`the id of a request (${m.method}) must be a string or a finite number`)
    return undefined
  }
  if (!hasId) return invalid('the message has neither a "method" (request or notification) nor an "id" (response)')
  if (m.id !== null && !usableId(m.id)) return invalid("the id of a response must be a string, a finite number or null")
  return undefined
}
