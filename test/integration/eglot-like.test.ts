import { existsSync, readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { eglotCapabilities } from "../support/editor-capabilities"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

// A client that declares exactly what eglot 1.9 (Debian's elpa-eglot, Emacs 28) declares in `initialize`
// (eglot.el, `eglot-client-capabilities`, read from the installed eglot): no `window` capabilities at all, yet
// it answers window/showMessageRequest with a minibuffer choice. Plain eglot users (without clients/emacs)
// approve there.
const EGLOT_1_9_CAPABILITIES = await eglotCapabilities()

function writeScript(content: string) {
  return [
    { toolCalls: [{ id: "toolu_write", name: "write_to_file", input: { path: "notes.md", content } }] },
    { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] },
  ]
}

describe("an eglot 1.9-like client (no window capabilities declared, showMessageRequest answered)", () => {
  it("asks the approval with window/showMessageRequest and writes once the user picks Allow once", async () => {
    expect(EGLOT_1_9_CAPABILITIES.window).toBeUndefined()
    const ws = await tempWorkspace()
    const { server } = await startSession(writeScript("from emacs\n"), { workspace: ws.root, capabilities: EGLOT_1_9_CAPABILITIES })
    server.handlers.showMessageRequest = (params) => params.actions?.find((a) => /allow once/i.test(a.title)) ?? null
    await server.request("workspace/executeCommand", { command: "agent.newTask", arguments: ["write notes"] })
    await server.waitFor(() => existsSync(ws.path("notes.md")) || undefined, 15_000, "notes.md")
    const asked = server.serverRequests.find((r) => r.method === "window/showMessageRequest")!.params
    expect(asked.message).toContain("notes.md")
    expect(asked.actions.map((a: { title: string }) => a.title)).toEqual(expect.arrayContaining(["Allow once", "Reject"]))
    expect(readFileSync(ws.path("notes.md"), "utf8")).toBe("from emacs\n")
    // No agent/* request reached a client that did not declare them (eglot answers unknown requests with null).
    expect(server.serverRequests.filter((r) => r.method.startsWith("agent/"))).toEqual([])
  })

  it("gives up on a showMessageRequest nobody answers after agent.approval.timeoutSeconds and does not write", async () => {
    const ws = await tempWorkspace()
    const { server, api } = await startSession(writeScript("never\n"), {
      workspace: ws.root,
      capabilities: EGLOT_1_9_CAPABILITIES,
      initializationOptions: { agent: { approval: { timeoutSeconds: 1 } } },
    })
    server.handlers.showMessageRequest = () => new Promise(() => {})
    await server.request("workspace/executeCommand", { command: "agent.newTask", arguments: ["write notes"] })
    await api.waitForRequests(2, 20_000)
    const last = api.requests[1]!.body.messages.at(-1).content.find((b: { type: string }) => b.type === "tool_result")
    expect(last.is_error).toBe(true)
    expect(existsSync(ws.path("notes.md"))).toBe(false)
  })
})
