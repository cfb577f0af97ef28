import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { startFakeOpenAi } from "../support/fake-openai"
import { startSession } from "../support/session"
import { tempWorkspace, textsUnder } from "../support/temp-workspace"

/**
 * Two OpenAI-compatible servers (say OpenRouter and a local vLLM), each profile naming the variable that
 * holds its own key. Names that look like no secret (…_AUTH, …_PASS_PHRASE) prove the launcher strips them
 * because the settings name them, not because of their shape.
 */
const ROUTER_KEY = "router-key-0123456789abcdef"
const LOCAL_KEY = "local-key-fedcba9876543210"
const SHARED_KEY = "shared-openai-key-5555555555"

describe("a key per profile (profiles.<name>.apiKeyEnv)", () => {
  it("sends each server its own key, and no command the agent runs sees any of them", async () => {
    const ws = await tempWorkspace({ "a.txt": "a\n" })
    onTestFinished(() => ws.cleanup())
    const command = "cat /proc/$PPID/environ | tr '\\0' '\\n'; env; echo END"
    const router = await startFakeOpenAi([
      { toolCalls: [{ id: "call_env", name: "execute_command", input: { command } }] },
      { toolCalls: [{ id: "call_done", name: "attempt_completion", input: { result: "done" } }] },
    ])
    onTestFinished(() => router.close())
    const local = await startFakeOpenAi([{ toolCalls: [{ id: "call_plan", name: "attempt_completion", input: { result: "planned" } }] }])
    onTestFinished(() => local.close())
    const config = mkdtempSync(join(tmpdir(), "agent-lsp-global-"))
    const globalFile = join(config, "settings.json")
    writeFileSync(
      globalFile,
      JSON.stringify({
        agent: {
          terminal: { allow: ["cat", "tr", "env", "echo"] },
          profiles: {
            router: {
              provider: "openai",
              model: "openai/gpt-4o",
              baseUrl: `${router.url}/v1`,
              apiKeyEnv: "ROUTER_AUTH",
              contextWindow: 128_000,
            },
            local: {
              provider: "openai",
              model: "qwen3-coder",
              baseUrl: `${local.url}/v1`,
              apiKeyEnv: "VLLM_PASS_PHRASE",
              contextWindow: 32_768,
            },
          },
          modeProfiles: { code: "router", architect: "local" },
        },
      }),
    )
    const { server } = await startSession([], {
      workspace: ws.root,
      env: { AGENT_LSP_SETTINGS_FILE: globalFile, ROUTER_AUTH: ROUTER_KEY, VLLM_PASS_PHRASE: LOCAL_KEY, OPENAI_API_KEY: SHARED_KEY },
    })

    const code = await server.request("agent/newTask", { text: "show the environment", mode: "code" })
    await server.waitForStatus(code.taskId, "completed", 30_000)
    const architect = await server.request("agent/newTask", { text: "plan it", mode: "architect" })
    await server.waitForStatus(architect.taskId, "completed", 30_000)

    expect(router.requests).toHaveLength(2)
    expect(local.requests).toHaveLength(1)
    for (const request of router.requests) expect(request.headers.authorization).toBe(`Bearer ${ROUTER_KEY}`)
    expect(local.requests[0]!.headers.authorization).toBe(`Bearer ${LOCAL_KEY}`)

    const toolMessage = router.requests[1]!.body.messages.filter((m: any) => m.role === "tool").at(-1)
    const output = typeof toolMessage.content === "string" ? toolMessage.content : toolMessage.content.map((c: any) => c.text).join("\n")
    expect(output).toContain("END")
    expect(output).toContain("PATH=")
    for (const secret of [ROUTER_KEY, LOCAL_KEY, SHARED_KEY, "ROUTER_AUTH", "VLLM_PASS_PHRASE"]) expect(output).not.toContain(secret)
    for (const [file, text] of textsUnder(server.stateHome))
      for (const secret of [ROUTER_KEY, LOCAL_KEY]) expect(text, file).not.toContain(secret)
    expect(server.stderr).not.toContain(ROUTER_KEY)
    expect(server.stderr).not.toContain(LOCAL_KEY)
  })
})
