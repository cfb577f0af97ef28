import type { FakeAnthropic, FakeReply, RecordedRequest } from "./fake-anthropic"
import type { FakeOpenAi, FakeOpenAiReply } from "./fake-openai"
import type { Scripted } from "./loopback-api"
import { scopedFake, scopedFakeOpenAi, scopedServer } from "./scoped"
import type { ServerHarness, StartOptions } from "./server-harness"

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
  const api = await scopedFake(replies)
  const server = await scopedServer({ ...options, apiUrl: api.url })
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
  const api = await scopedFakeOpenAi(replies)
  const { apiKey, agent, ...rest } = options
  const server = await scopedServer({
    ...rest,
    env: { OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: apiKey, ...rest.env },
    initializationOptions: { agent: { provider: "openai", model: "gpt-4o-mini", ...agent } },
  })
  return { server, api }
}

// The tool_result helpers live apart from vitest, so the VS Code e2e runner (no vitest) reads them too.
export { toolResultIn, toolResultsOf, toolResultText } from "./tool-results"
