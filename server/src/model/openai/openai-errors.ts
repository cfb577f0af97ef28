import OpenAI from "openai"
import { ModelError } from "../provider"
import { isRetryableStatus } from "../retry"

/** What an error message may name: the endpoint and model, whether a key was sent, and the key to hide. */
export interface ErrorContext {
  model: string
  baseUrl: string
  apiKey: string | undefined
  /** The environment variable the key is read from (OPENAI_API_KEY, or the profile's apiKeyEnv). */
  keyEnv: string
}

// Ollama: "… does not support tools"; OpenRouter: "No endpoints found that support tool use";
// vLLM: "tool choice requires --enable-auto-tool-choice"; others: "tools are not supported".
const NO_TOOLS =
  /does not support tools|support tool use|tools? (are|is) not supported|enable-auto-tool-choice|function calling is not (enabled|supported)/i

/** The SDK's failure → our ModelError, with the server's own words and never the key. */
export function classifyOpenAiError(error: unknown, signal: AbortSignal, ctx: ErrorContext): ModelError {
  if (error instanceof ModelError) return error
  if (signal.aborted || error instanceof OpenAI.APIUserAbortError) return new ModelError("The request was cancelled.", "aborted", false)
  const where = `the model server at ${ctx.baseUrl}`
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause
    const detail = cause?.code ?? cause?.message ?? error.message
    return new ModelError(
      hide(`Could not reach ${where} (${detail}). Check agent.baseUrl (or OPENAI_BASE_URL) and that the server is running.`, ctx),
      "network",
      true,
    )
  }
  if (!(error instanceof OpenAI.APIError)) {
    return new ModelError(hide(`The model request failed: ${error instanceof Error ? error.message : String(error)}`, ctx), "network", true)
  }
  const status = error.status
  const said = serverMessage(error)
  if (NO_TOOLS.test(said)) {
    return new ModelError(
      hide(
        `The model "${ctx.model}" at ${ctx.baseUrl} does not support tool calls (the server said: ${said}). agent-lsp needs native tool calls: ` +
          `set agent.model (or the mode's profile in agent.profiles) to a model with tool support (on Ollama, one tagged "tools", such as qwen2.5-coder or llama3.1).`,
        ctx,
      ),
      "unsupported",
      false,
    )
  }
  if (status === 401 || status === 403) {
    const fix = ctx.apiKey
      ? `Check that ${ctx.keyEnv} in the environment agent-lsp starts in is a valid key for this server`
      : `This server needs a key: set ${ctx.keyEnv} in the environment agent-lsp starts in`
    return new ModelError(
      hide(
        `${cap(where)} rejected the request (${status}): ${said}. ${fix} (an editor passes on the environment it was started with), then try again.`,
        ctx,
      ),
      "auth",
      false,
    )
  }
  if (status === 404) {
    return new ModelError(
      hide(
        `${cap(where)} answered 404 for model "${ctx.model}": ${said}. Check agent.model (or the mode's profile) against the server's model list ` +
          `(for Ollama: \`ollama list\`), and that agent.baseUrl ends in /v1 (for example http://localhost:11434/v1).`,
        ctx,
      ),
      "notFound",
      false,
    )
  }
  if (status === 429) return new ModelError(hide(`${cap(where)} rate limit was reached (429): ${said}.`, ctx), "rateLimited", true)
  if (status === undefined || isRetryableStatus(status))
    return new ModelError(hide(`${cap(where)} failed (${status ?? "error in the stream"}): ${said}.`, ctx), "server", true)
  return new ModelError(hide(`${cap(where)} refused the request (${status}): ${said}`, ctx), "badRequest", false)
}

/** The message the server put in its error body, else the SDK's. */
function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined
  const text =
    typeof body?.message === "string" ? body.message : typeof body?.error?.message === "string" ? body.error.message : error.message
  return text.replace(/\s+/g, " ").trim().slice(0, 500)
}

/** Servers and fetch sometimes echo what they were sent: neither the key nor URL credentials reach a message. */
function hide(message: string, ctx: ErrorContext): string {
  const keyless = ctx.apiKey && ctx.apiKey.length >= 4 ? message.split(ctx.apiKey).join(`[${ctx.keyEnv}]`) : message
  return keyless.replace(/\/\/[^/@\s]+@/g, "//")
}

function cap(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
