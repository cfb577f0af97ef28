import { onTestFinished } from "vitest"
import { startFakeAnthropic, type FakeAnthropic, type FakeReply } from "./fake-anthropic"
import { startFakeOpenAi, type FakeOpenAi, type FakeOpenAiReply } from "./fake-openai"
import type { Scripted } from "./loopback-api"
import { startServer, type ServerHarness, type StartOptions } from "./server-harness"
import { tempWorkspace, type TempWorkspace } from "./temp-workspace"

// Each helper registers its teardown with onTestFinished: it runs when the test ends, pass or fail, in the
// reverse order of the set-up (servers stop before the fake APIs they use close, then workspaces go).

/** A fake Messages API with these replies, closed when the current test finishes. */
export async function scopedFake(replies: Scripted<FakeReply>[]): Promise<FakeAnthropic> {
  const api = await startFakeAnthropic(replies)
  onTestFinished(() => api.close())
  return api
}

/** A fake Chat Completions API with these replies, closed when the current test finishes. */
export async function scopedFakeOpenAi(replies: Scripted<FakeOpenAiReply>[]): Promise<FakeOpenAi> {
  const api = await startFakeOpenAi(replies)
  onTestFinished(() => api.close())
  return api
}

/** The built server (dist/), stopped when the current test finishes. */
export async function scopedServer(options: StartOptions): Promise<ServerHarness> {
  const server = await startServer(options)
  onTestFinished(async () => void (await server.stop()))
  return server
}

/** A temp workspace with these files, removed when the current test finishes. */
export async function scopedWorkspace(files: Record<string, string> = {}): Promise<TempWorkspace> {
  const ws = await tempWorkspace(files)
  onTestFinished(() => ws.cleanup())
  return ws
}

/** The environment of an agent-lsp child process: isolated state and config folders, a dummy key, the fake API. */
export function childEnv(stateHome: string, apiUrl: string | undefined, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: Record<string, string | undefined> = {
    ...process.env,
    XDG_STATE_HOME: `${stateHome}/state`,
    XDG_CONFIG_HOME: `${stateHome}/config`,
    ANTHROPIC_API_KEY: "sk-ant-test-child-key-0123456789",
    ANTHROPIC_BASE_URL: apiUrl ?? "http://127.0.0.1:9",
    ...extra,
  }
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k]
  return env as NodeJS.ProcessEnv
}
