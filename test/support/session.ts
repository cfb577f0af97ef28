import { onTestFinished } from "vitest"
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type RecordedRequest } from "./fake-anthropic"
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiReply } from "./fake-openai"
import type { Scripted } from "./loopback-api"
import { startServer, type ServerHarness, type StartOptions } from "./server-harness"

export interface Session {
  server: ServerHarness
  api: FakeAnthropic
}

/**
 * The usual integration set-up: a fake Messages API with these replies and the built server pointed at
 * it, both stopped when the current test finishes (pass or fail).
 */
export async function startSession(
  replies: (FakeReply | ((request: RecordedRequest) => FakeReply))[],
  options: Omit<StartOptions, "apiUrl">,
): Promise<Session> {
  const api = await startFakeAnthropic(replies)
  onTestFinished(() => api.close())
  const server = await startServer({ ...options, apiUrl: api.url })
  onTestFinished(async () => void (await server.stop()))
  return { server, api }
}

/**
 * The same on the openai provider: a fake Chat Completions API at OPENAI_BASE_URL and the built server
 * with `agent.provider: "openai"` plus `agent` (model and anything else). `apiKey` undefined = no
 * OPENAI_API_KEY in the server's environment at all (a local server).
 */
export async function startOpenAiSession(
  replies: Scripted<FakeOpenAiReply>[],
  options: Omit<StartOptions, "apiUrl" | "initializationOptions"> & { apiKey: string | undefined; agent?: Record<string, unknown> },
): Promise<{ server: ServerHarness; api: FakeOpenAi }> {
  const api = await startFakeOpenAi(replies)
  onTestFinished(() => api.close())
  const { apiKey, agent, ...rest } = options
  const server = await startServer({
    ...rest,
    env: { OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: apiKey, ...rest.env },
    initializationOptions: { agent: { provider: "openai", model: "gpt-4o-mini", ...agent } },
  })
  onTestFinished(async () => void (await server.stop()))
  return { server, api }
}

// The tool_result helpers live apart from vitest, so the VS Code e2e runner (no vitest) reads them too.
export { toolResultIn, toolResultsOf, toolResultText } from "./tool-results"
