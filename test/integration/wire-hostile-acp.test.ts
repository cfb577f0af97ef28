import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { FUZZ_RUNS, FUZZ_SEED, hostileParams, leaks, rawMessage } from "../support/hostile-json"
import { pollUntil } from "../support/poll"
import { startAcpClient } from "../support/acp-client"
import { childEnv, scopedFake, scopedWorkspace } from "../support/scoped"
import { SERVER_ENTRY } from "../support/server-harness"

/**
 * The ACP front (`agent-lsp --acp`, the built server) under hostile JSON-RPC: every method it handles with
 * hostile params; after each the server lives, bad input is never InternalError and leaks nothing.
 */

const SERVER_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "")
const procs: ChildProcessWithoutNullStreams[] = []
afterEach(() => {
  for (const p of procs.splice(0)) if (p.exitCode === null) p.kill("SIGKILL")
})

function startAcp(home: string): { proc: ChildProcessWithoutNullStreams; messages: any[] } {
  const proc = spawn(process.execPath, [SERVER_ENTRY, "--acp"], { env: childEnv(home, undefined), stdio: "pipe" })
  procs.push(proc)
  const messages: any[] = []
  let rest = ""
  proc.stdout.on("data", (d: Buffer) => {
    const lines = (rest + d.toString()).split("\n")
    rest = lines.pop() ?? ""
    for (const line of lines) if (line.trim()) messages.push(JSON.parse(line))
  })
  return { proc, messages }
}

let nextId = 1
async function ask(c: ReturnType<typeof startAcp>, method: string, params: string | undefined): Promise<any> {
  const id = nextId++
  c.proc.stdin.write(`${rawMessage(method, id, params)}\n`)
  let found: any
  await pollUntil(`an answer to ${method}`, () => (found = c.messages.find((m) => m.id === id && !m.method)) !== undefined, 15_000)
  return found
}

const REQUESTS = [
  "initialize",
  "authenticate",
  "logout",
  "session/new",
  "session/load",
  "session/resume",
  "session/list",
  "session/delete",
  "session/close",
  "session/prompt",
  "session/set_mode",
  "session/set_config_option",
]
const NOTIFICATIONS = ["session/cancel", "$/cancel_request"]
const FIELDS = ["protocolVersion", "clientCapabilities", "methodId", "sessionId", "cwd", "mcpServers", "additionalDirectories"]
const MORE_FIELDS = ["prompt", "modeId", "configId", "value", "requestId"]

describe("the ACP front under hostile JSON-RPC", () => {
  it("answers every method with hostile params without InternalError or a leak, and lives", async () => {
    const ws = await scopedWorkspace({ "a.txt": "a\n" })
    const c = startAcp(ws.root)
    expect((await ask(c, "initialize", '{"protocolVersion":1,"clientCapabilities":{}}')).result?.protocolVersion).toBe(1)
    const session = await ask(c, "session/new", JSON.stringify({ cwd: ws.root, mcpServers: [] }))
    const sessionId = session.result.sessionId as string
    const message = fc.tuple(
      fc.constantFrom(...REQUESTS, ...NOTIFICATIONS),
      hostileParams([...FIELDS, ...MORE_FIELDS]),
      fc.boolean(),
      fc.boolean(),
    )
    await fc.assert(
      fc.asyncProperty(message, async ([method, params, asRequest, forRealSession]) => {
        // Some cases aim at the live session (set_mode, set_config_option, …); a prompt on it would run the model.
        const aimed =
          forRealSession && method !== "session/prompt" && params?.startsWith("{")
            ? params.replace(/^\{/, `{"sessionId":${JSON.stringify(sessionId)},`).replace(/,}$/, "}")
            : params
        const what = `${method} ${String(aimed).slice(0, 200)}`
        if (asRequest || !NOTIFICATIONS.includes(method)) {
          const answer = await ask(c, method, aimed)
          if (answer.error) {
            expect(answer.error.code, `${what} → ${JSON.stringify(answer).slice(0, 400)}`).not.toBe(-32603)
            expect(leaks(String(answer.error.message), SERVER_ROOT), what).toBeUndefined()
          }
        } else c.proc.stdin.write(`${rawMessage(method, undefined, aimed)}\n`)
        expect((await ask(c, "session/list", "{}")).result?.sessions, what).toBeDefined()
        expect(c.proc.exitCode, what).toBeNull()
      }),
      { numRuns: FUZZ_RUNS ?? 120, seed: FUZZ_SEED },
    )
  }, 120_000)

  it("refuses a cwd that is a file, relative or holds a NUL byte with InvalidParams naming it", async () => {
    const ws = await scopedWorkspace({ "a.txt": "a\n" })
    const c = startAcp(ws.root)
    await ask(c, "initialize", '{"protocolVersion":1,"clientCapabilities":{}}')
    for (const cwd of [join(ws.root, "a.txt"), `${ws.root}/\u0000x`, "relative"]) {
      const answer = await ask(c, "session/new", JSON.stringify({ cwd, mcpServers: [] }))
      expect(answer.error, cwd).toMatchObject({ code: -32602, message: expect.stringContaining("cwd") })
      expect(answer.error.message).not.toContain("\u0000")
    }
  })

  it("names the wrong fields in the message of an InvalidParams the SDK's schema gives", async () => {
    const ws = await scopedWorkspace()
    const c = startAcp(ws.root)
    await ask(c, "initialize", '{"protocolVersion":1,"clientCapabilities":{}}')
    const answer = await ask(c, "session/new", '{"cwd":5}')
    expect(answer.error.code).toBe(-32602)
    expect(answer.error.message).toMatch(/^Invalid params: .*cwd: expected string, received number.*mcpServers: expected array/)
  })

  it("answers a prompt whose content blocks carry hostile URIs and data without InternalError, and lives", async () => {
    const ws = await scopedWorkspace({ "a.txt": "a\n" })
    const done = (n: number) => ({ toolCalls: [{ id: `toolu_done${n}`, name: "attempt_completion", input: { result: "ok" } }] })
    const api = await scopedFake(Array.from({ length: 12 }, (_, n) => done(n)))
    const { client } = await startAcpClient({ apiUrl: api.url })
    const { sessionId } = await client.agent.request("session/new", { cwd: ws.root, mcpServers: [] })
    const blocks: any[] = [
      { type: "resource_link", uri: "file:///%", name: "x" },
      { type: "resource_link", uri: "file://evil.example/etc/passwd", name: "x" },
      { type: "resource_link", uri: "file:///a/%00b", name: "__proto__" },
      { type: "resource", resource: { uri: "file:///%E0%A4%A", text: "t" } },
      { type: "resource", resource: { uri: "constructor", blob: "AAAA" } },
      { type: "image", mimeType: "image/svg+xml", data: "AAAA" },
      { type: "image", mimeType: "image/png", data: "A".repeat(8 * 1024 * 1024) },
      { type: "audio", mimeType: "audio/wav", data: "AAAA" },
    ]
    for (const block of blocks) {
      const outcome = await client.agent.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "look" }, block] }).then(
        (r) => ({ stopReason: (r as { stopReason?: string }).stopReason }),
        (e) => ({ code: (e as { code?: number }).code, message: String((e as Error).message) }),
      )
      const what = `${JSON.stringify(block).slice(0, 120)} → ${JSON.stringify(outcome).slice(0, 300)}`
      expect("code" in outcome ? outcome.code : 0, what).not.toBe(-32603)
      if ("message" in outcome) expect(leaks(outcome.message, SERVER_ROOT), what).toBeUndefined()
    }
    expect((await client.agent.request("session/list", {})).sessions.length).toBeGreaterThan(0)
  }, 60_000)
})
