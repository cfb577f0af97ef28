import { onTestFinished } from "vitest"
import { startFakeAnthropic, type FakeAnthropic, type FakeReply, type RecordedRequest } from "./fake-anthropic"
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

/** The tool_result block for `toolUseId` in the last message of a request the fake received. */
export function toolResultIn(request: RecordedRequest | undefined, toolUseId: string): any {
  return request?.body.messages.at(-1)?.content.find((b: any) => b.type === "tool_result" && b.tool_use_id === toolUseId)
}
