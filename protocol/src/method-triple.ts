import { z } from "zod"

/* The shape every method of the contract shares, and the parameter types several of them use. */

/** One request or notification of the contract: its method name and the zod schemas of both ends. */
export interface MethodTriple<M extends string, P extends z.ZodType, R extends z.ZodType> {
  method: M
  params: P
  result: R
  direction: "clientToServer" | "serverToClient"
  kind: "request" | "notification"
  /** What the method does, one or two sentences (protocol/PROTOCOL.md is generated from it). */
  summary: string
}

export function request<M extends string, P extends z.ZodType, R extends z.ZodType>(
  method: M,
  summary: string,
  params: P,
  result: R,
  direction: "clientToServer" | "serverToClient" = "clientToServer",
): MethodTriple<M, P, R> {
  return { method, params, result, direction, kind: "request", summary }
}

export const Empty = z.object({})
/** Task ids are short (agent/newTask's are 15 characters); the bound keeps a hostile one out of every error message. */
export const TaskId = z
  .string()
  .min(1)
  .max(200, "a task id is at most 200 characters: use one agent/newTask or agent/listTasks gave")
  .describe("The task, as agent/newTask returned it.")

/**
 * A URI the server turns into a local path: a `file:` URI must name a local file (no host but `localhost`,
 * no encoded `/` or `\\`, a path that decodes, no NUL byte), so a bad one is InvalidParams at the dispatcher
 * rather than a throw in a handler (Node's fileURLToPath throws "URI malformed" on `file:///%`).
 */
export const LocalUri = z.string().superRefine((uri, ctx) => {
  if (uri.includes("\0")) return ctx.addIssue({ code: "custom", message: "a URI must not hold a NUL character" })
  if (!/^file:/i.test(uri)) return
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return ctx.addIssue({ code: "custom", message: "not a valid file URI" })
  }
  if (url.hostname !== "" && url.hostname !== "localhost")
    ctx.addIssue({ code: "custom", message: `a file URI must name a local file: host "${url.hostname}" is not allowed` })
  else if (/%2f|%5c/i.test(url.pathname))
    ctx.addIssue({ code: "custom", message: "a file URI must not hold an encoded / or \\ (%2F, %5C) in its path" })
  else if (/%00/.test(url.pathname)) ctx.addIssue({ code: "custom", message: "a file URI must not hold an encoded NUL (%00) in its path" })
  else if (!decodes(url.pathname))
    ctx.addIssue({
      code: "custom",
      message: "a file URI's path must be percent-encoded correctly (each % followed by two hex digits of UTF-8)",
    })
})

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path)
    return true
  } catch {
    return false
  }
}

/** A checkpoint id as agent/listCheckpoints gives it: a shadow-git commit id (hex), never a ref name or an option. */
export const CheckpointId = z.string().superRefine((id, ctx) => {
  if (!/^[0-9a-f]{40}([0-9a-f]{24})?$/.test(id))
    ctx.addIssue({
      code: "custom",
      message: `"${id.length > 80 ? `${id.slice(0, 80)}…` : id}" is not a checkpoint id: it is the 40 (or 64) hex digits agent/listCheckpoints gives`,
    })
})
