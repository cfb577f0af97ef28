import type { MethodTriple } from "@agent-lsp/protocol"
import { ErrorCodes, ResponseError } from "vscode-languageserver/node"
import type { z } from "zod"
import { UnknownCheckpointError } from "../../checkpoints/errors"
import { TaskRequestError } from "../../task/service"

/** Turns the first zod issues into one readable line: "text: must not be empty; mode: expected string". */
export function zodMessage(error: z.ZodError): string {
  return error.issues
    .slice(0, 5)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "params"}: ${issue.message}`)
    .join("; ")
}

/** Maps a failure of the task layer to the wire; anything unexpected is an InternalError with its message. */
export function toResponseError(error: unknown): ResponseError<void> {
  if (error instanceof ResponseError) return error
  if (error instanceof TaskRequestError) return new ResponseError(ErrorCodes.InvalidRequest, error.message)
  if (error instanceof UnknownCheckpointError) return new ResponseError(ErrorCodes.InvalidParams, error.message)
  return new ResponseError(ErrorCodes.InternalError, error instanceof Error ? error.message : String(error))
}

/**
 * Serves one client → server request: params are zod-validated (bad params → InvalidParams with the zod
 * message) before the handler sees them, and its errors become JSON-RPC errors.
 */
export async function runAgentRequest<M extends string, P extends z.ZodType, R extends z.ZodType>(
  triple: MethodTriple<M, P, R>,
  raw: unknown,
  handler: (params: z.infer<P>) => Promise<z.infer<R>>,
): Promise<z.infer<R>> {
  const parsed = triple.params.safeParse(raw ?? {})
  if (!parsed.success) throw new ResponseError(ErrorCodes.InvalidParams, `Invalid params for ${triple.method}: ${zodMessage(parsed.error)}`)
  try {
    return await handler(parsed.data)
  } catch (error) {
    throw toResponseError(error)
  }
}
