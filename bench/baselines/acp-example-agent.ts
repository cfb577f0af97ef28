/**
 * The baseline of `npm run bench -- acp`: the ACP TypeScript SDK's example agent (src/examples/agent.ts of
 * agentclientprotocol/typescript-sdk: initialize, session/new with a random id, session/prompt answering
 * with agent_message_chunk updates, cancel through an AbortController), written against the SDK 2.x API
 * that agent-lsp uses, with its simulated one-second "model interaction" replaced by one streaming call
 * to the same fake Messages API through the same @anthropic-ai/sdk. What is left is the floor of any
 * agent on these two libraries: no prompt building, no tools, no task files, no checkpoints.
 * Run as a child process by the bench: `node --import tsx bench/baselines/acp-example-agent.ts`.
 */
import { randomBytes } from "node:crypto"
import { Readable, Writable } from "node:stream"
import Anthropic from "@anthropic-ai/sdk"
import * as acp from "@agentclientprotocol/sdk"

const anthropic = new Anthropic({ baseURL: process.env.ANTHROPIC_BASE_URL, apiKey: process.env.ANTHROPIC_API_KEY ?? "none" })
const sessions = new Map<string, { pending: AbortController | null }>()
let client: acp.AgentContext | undefined

async function prompt(sessionId: string, text: string, signal: AbortSignal): Promise<acp.PromptResponse> {
  const session = sessions.get(sessionId)
  if (!session) throw acp.RequestError.invalidParams({ sessionId }, `Session ${sessionId} not found`)
  session.pending?.abort()
  const pending = new AbortController()
  session.pending = pending
  signal.addEventListener("abort", () => pending.abort(), { once: true })
  try {
    const stream = anthropic.messages.stream(
      { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: text }] },
      { signal: pending.signal },
    )
    for await (const event of stream) {
      if (event.type === "content_block_delta" && event.delta.type === "text_delta")
        await client!.notify("session/update", {
          sessionId,
          update: { sessionUpdate: "agent_message_chunk", content: { type: "text", text: event.delta.text } },
        })
    }
  } catch (error) {
    if (pending.signal.aborted) return { stopReason: "cancelled" }
    throw error
  }
  session.pending = null
  return { stopReason: "end_turn" }
}

const app = acp
  .agent({ name: "acp-example-agent" })
  .onConnect((connection) => {
    client = connection.client
  })
  .onRequest("initialize", () => ({ protocolVersion: acp.PROTOCOL_VERSION, agentCapabilities: { loadSession: false } }))
  .onRequest("session/new", () => {
    const sessionId = randomBytes(16).toString("hex")
    sessions.set(sessionId, { pending: null })
    return { sessionId }
  })
  .onRequest("session/prompt", ({ params, signal }) => {
    const text = params.prompt.map((block) => (block.type === "text" ? block.text : "")).join("")
    return prompt(params.sessionId, text, signal)
  })
  .onNotification("session/cancel", ({ params }) => sessions.get(params.sessionId)?.pending?.abort())

app.connect(
  acp.ndJsonStream(
    Writable.toWeb(process.stdout) as WritableStream<Uint8Array>,
    Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>,
  ),
)
