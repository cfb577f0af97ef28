import { spawn } from "node:child_process"
import { afterEach, describe, expect, it } from "vitest"
import { AgentCommands } from "@agent-lsp/protocol"
import { initializeParams, RawClient } from "../support/raw-client"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace } from "../support/temp-workspace"

let client: RawClient | undefined
let harness: ServerHarness | undefined
afterEach(async () => {
  client?.kill()
  client = undefined
  await harness?.stop()
  harness = undefined
})

async function initialized(): Promise<RawClient> {
  const ws = await tempWorkspace()
  const c = RawClient.start()
  c.send({ id: 1, method: "initialize", params: initializeParams(ws.root) })
  await c.response(1)
  c.send({ method: "initialized", params: {} })
  return c
}

describe("the server at the wire", () => {
  it("answers initialize with honest capabilities", async () => {
    const ws = await tempWorkspace()
    harness = await startServer({ workspace: ws.root })
    const caps = harness.initializeResult.capabilities
    expect(caps.textDocumentSync).toMatchObject({ openClose: true, change: 2 })
    expect(caps.executeCommandProvider.commands).toEqual(Object.values(AgentCommands))
    expect(caps.codeActionProvider).toBeTruthy()
    expect(caps.workspace.workspaceFolders).toEqual({ supported: true, changeNotifications: true })
    expect(harness.initializeResult.serverInfo.name).toBe("agent-lsp")
  })

  it("refuses requests before initialize with ServerNotInitialized, then initializes", async () => {
    const ws = await tempWorkspace()
    client = RawClient.start()
    client.send({ id: 1, method: "agent/listTasks", params: {} })
    expect((await client.response(1)).error.code).toBe(-32002)
    client.send({ id: 2, method: "initialize", params: initializeParams(ws.root) })
    expect((await client.response(2)).result.capabilities).toBeTruthy()
  })

  it("refuses a second initialize and keeps serving", async () => {
    client = await initialized()
    client.send({ id: 2, method: "initialize", params: initializeParams("/tmp") })
    expect((await client.response(2)).error.message).toMatch(/already received/)
    client.send({ id: 3, method: "agent/listModes", params: {} })
    const answer = await client.response(3)
    expect(answer.error?.code ?? 0).not.toBe(-32002)
  })

  it("answers malformed JSON with ParseError and keeps serving", async () => {
    client = await initialized()
    client.sendRaw("Content-Length: 9\r\n\r\n{not json")
    const parseError = await client.waitFor((m) => m.error?.code === -32700)
    expect(parseError.id).toBeNull()
    client.send({ id: 5, method: "shutdown" })
    expect(await client.response(5)).toMatchObject({ id: 5, result: null })
  })

  it("survives a Content-Length that is too short or too long", async () => {
    client = await initialized()
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "textDocument/codeAction",
      params: {
        textDocument: { uri: "file:///x" },
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } },
        context: { diagnostics: [] },
      },
    })
    client.sendRaw(`Content-Length: ${body.length - 20}\r\n\r\n${body}`)
    expect((await client.response(7)).result).toHaveLength(1)
    const body8 = body.replace('"id":7', '"id":8')
    client.sendRaw(`Content-Length: ${body8.length + 50}\r\n\r\n${body8}`)
    client.send({ id: 9, method: "shutdown" })
    expect((await client.response(9)).result).toBeNull()
    expect((await client.response(8)).result).toHaveLength(1)
  })

  it("accepts a 10 MB message and keeps serving", async () => {
    client = await initialized()
    const text = "x".repeat(10 * 1024 * 1024)
    client.send({
      method: "textDocument/didOpen",
      params: { textDocument: { uri: "file:///tmp/big.txt", languageId: "plaintext", version: 1, text } },
    })
    client.send({ id: 11, method: "shutdown" })
    expect((await client.response(11, 20_000)).result).toBeNull()
  })

  it("exits 0 on shutdown then exit", async () => {
    client = await initialized()
    client.send({ id: 2, method: "shutdown" })
    await client.response(2)
    client.send({ method: "exit" })
    expect(await client.waitForExit()).toBe(0)
  })

  it("exits 1 on exit without shutdown", async () => {
    client = await initialized()
    client.send({ method: "exit" })
    expect(await client.waitForExit()).toBe(1)
  })

  it("exits when the parent process named in initialize dies", async () => {
    const ws = await tempWorkspace()
    const parent = spawn("sleep", ["1"])
    // Listened for at once: on a loaded machine the server may answer initialize after the second is over.
    const parentExited = new Promise((r) => parent.once("exit", r))
    client = RawClient.start()
    client.send({ id: 1, method: "initialize", params: initializeParams(ws.root, parent.pid!) })
    await client.response(1)
    client.send({ method: "initialized", params: {} })
    await parentExited
    expect(await client.waitForExit(15_000)).not.toBeUndefined()
  })

  it("answers unknown methods with MethodNotFound and bad agent/* params with InvalidParams", async () => {
    const ws = await tempWorkspace()
    harness = await startServer({ workspace: ws.root })
    await expect(harness.request("agent/noSuchMethod", {})).rejects.toMatchObject({ code: -32601 })
    await expect(harness.request("agent/newTask", { text: 42 })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("text:"),
    })
    await expect(harness.request("agent/respond", { requestId: "a99" })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining("No pending request"),
    })
    await expect(harness.request("workspace/executeCommand", { command: "agent.nope", arguments: [] })).rejects.toMatchObject({
      message: expect.stringContaining("Unknown command"),
    })
    await expect(harness.request("workspace/executeCommand", { command: "agent.setMode", arguments: [] })).rejects.toMatchObject({
      code: -32602,
    })
  })

  it("offers code actions on a selection and for diagnostics", async () => {
    const ws = await tempWorkspace()
    harness = await startServer({ workspace: ws.root })
    const range = { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } }
    const actions = await harness.request("textDocument/codeAction", {
      textDocument: { uri: `file://${ws.root}/a.ts` },
      range,
      context: { diagnostics: [{ range, message: "x is not defined", source: "ts" }] },
    })
    expect(actions.map((a: any) => a.title)).toEqual(["Ask agent about selection", "Fix diagnostics with agent"])
    expect(actions[1].command).toMatchObject({
      command: "agent.newTask",
      arguments: [expect.stringContaining("x is not defined"), { uri: `file://${ws.root}/a.ts`, range }],
    })
  })
})
