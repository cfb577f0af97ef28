import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { AgentMethods } from "@agent-lsp/protocol"
import { LSP_CLIENT_NOTIFICATIONS as NOTIFICATIONS } from "../support/hostile-json"
import { initializedRawClient, type RawClient } from "../support/raw-client"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * Malformed input at the wire, generated: every notification and request the server handles, with params
 * of the wrong shape, and broken frames. After each case the server must still answer a valid request, and
 * no request may be answered with InternalError (-32603): bad params are InvalidParams with a message.
 */

let client: RawClient | undefined
afterEach(() => {
  client?.kill()
  client = undefined
})

const REQUESTS = [
  "textDocument/codeAction",
  "workspace/executeCommand",
  "codeAction/resolve",
  AgentMethods.sendMessage,
  AgentMethods.cancelTask,
  AgentMethods.resumeTask,
  AgentMethods.respond,
  AgentMethods.getTask,
  AgentMethods.setMode,
  AgentMethods.listCheckpoints,
  AgentMethods.diffCheckpoint,
  AgentMethods.restoreCheckpoint,
]

/** JSON values that look like LSP params gone wrong: nulls, wrong types, half-right objects. */
const badParams = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }),
  fc.record(
    {
      textDocument: fc.oneof(
        fc.constant(null),
        fc.jsonValue({ maxDepth: 2 }),
        fc.record({ uri: fc.oneof(fc.string(), fc.integer()), version: fc.jsonValue() }),
      ),
      contentChanges: fc.oneof(fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 })),
      settings: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
      id: fc.jsonValue({ maxDepth: 1 }),
      token: fc.jsonValue({ maxDepth: 1 }),
      value: fc.jsonValue({ maxDepth: 2 }),
      event: fc.jsonValue({ maxDepth: 2 }),
      command: fc.oneof(fc.string(), fc.integer(), fc.constant(null)),
      arguments: fc.oneof(fc.constant(null), fc.jsonValue({ maxDepth: 2 })),
      range: fc.jsonValue({ maxDepth: 2 }),
      context: fc.jsonValue({ maxDepth: 2 }),
      taskId: fc.jsonValue({ maxDepth: 1 }),
      requestId: fc.jsonValue({ maxDepth: 1 }),
      id2: fc.constant("x"),
    },
    { requiredKeys: [] },
  ),
)

async function initialized(): Promise<RawClient> {
  return initializedRawClient((await tempWorkspace()).root)
}

let nextId = 1
async function stillServing(c: RawClient): Promise<void> {
  const id = nextId++
  c.send({ id, method: AgentMethods.listModes, params: {} })
  const answer = await c.response(id, 5000)
  expect(answer.result?.modes?.length, JSON.stringify(answer)).toBeGreaterThan(0)
}

describe("malformed input never takes the server down", () => {
  it("logs and ignores notifications with bad params, and answers bad request params with InvalidParams", async () => {
    client = await initialized()
    const c = client
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...NOTIFICATIONS, ...REQUESTS), badParams, async (method, params) => {
        if (NOTIFICATIONS.includes(method)) c.send({ method, ...(params === undefined ? {} : { params }) })
        else {
          const id = nextId++
          c.send({ id, method, ...(params === undefined ? {} : { params }) })
          const answer = await c.response(id, 5000)
          expect(answer.error?.code, `${method} ${JSON.stringify(params)} → ${JSON.stringify(answer)}`).not.toBe(-32603)
        }
        await stillServing(c)
        expect(c.exitCode).toBeUndefined()
      }),
      { numRuns: 120, seed: 11 },
    )
  })

  it("recovers from broken frames and answers the next valid request", async () => {
    client = await initialized()
    const c = client
    const frame = fc.oneof(
      fc.string({ maxLength: 40 }).map((s) => `Content-Length: ${s}\r\n\r\n`),
      fc.nat(200).map((n) => `Content-Length: ${n}\r\n\r\n`),
      fc.string({ maxLength: 60 }).map((body) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`),
      fc.string({ maxLength: 60 }),
      fc.constant("Content-Type: application/json\r\n\r\n{}"),
      fc.constant("Content-Length: 2\r\n\r\n[]"),
      fc.constant("Content-Length: 4\r\n\r\nnull"),
    )
    await fc.assert(
      fc.asyncProperty(frame, async (bytes) => {
        c.sendRaw(bytes)
        await stillServing(c)
      }),
      { numRuns: 60, seed: 11 },
    )
  })

  it("does not let a header-only frame swallow the next request", async () => {
    client = await initialized()
    client.sendRaw("Content-Length: 120\r\n\r\n")
    await stillServing(client)
    client.sendRaw("Content-Length: 3\r\n\r\n")
    await stillServing(client)
  })

  it("ignores didChangeConfiguration with settings: null and a didOpen of the wrong shape, and logs them", async () => {
    client = await initialized()
    client.send({ method: "workspace/didChangeConfiguration", params: { settings: null } })
    client.send({ method: "workspace/didChangeConfiguration", params: null })
    client.send({ method: "textDocument/didOpen", params: { textDocument: { uri: 5, text: null } } })
    client.send({ method: "$/cancelRequest" })
    await stillServing(client)
    const logged = client.messages.filter((m) => m.method === "window/logMessage").map((m) => m.params.message as string)
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.stringContaining("ignored workspace/didChangeConfiguration with invalid params (params: expected object, received null)"),
        expect.stringContaining(
          "ignored textDocument/didOpen with invalid params (params.textDocument.uri: expected string, received number)",
        ),
        expect.stringContaining("ignored $/cancelRequest"),
      ]),
    )
  })

  it("answers bad params of standard requests with InvalidParams naming the field", async () => {
    client = await initialized()
    client.send({ id: 900, method: "textDocument/codeAction", params: { textDocument: { uri: "file:///x" }, range: null } })
    expect((await client.response(900)).error).toEqual({
      code: -32602,
      message: "Invalid params for textDocument/codeAction: params.range: expected object, received null",
    })
    client.send({ id: 901, method: "workspace/executeCommand", params: { command: 7 } })
    expect((await client.response(901)).error.code).toBe(-32602)
    client.send({ id: 902, method: "agent/getTask", params: { taskId: 7 } })
    expect((await client.response(902)).error).toMatchObject({ code: -32602, message: expect.stringContaining("taskId") })
  })

  it("answers requests after shutdown with InvalidRequest, and exits 0 on exit", async () => {
    client = await initialized()
    client.send({ id: 910, method: "shutdown" })
    expect((await client.response(910)).result).toBeNull()
    client.send({ id: 911, method: AgentMethods.listModes, params: {} })
    expect((await client.response(911)).error).toMatchObject({ code: -32600, message: expect.stringContaining('after "shutdown"') })
    client.send({ method: "exit" })
    expect(await client.waitForExit()).toBe(0)
  })

  it("exits within 2 s when stdin closes", async () => {
    client = await initialized()
    const started = Date.now()
    client.proc.stdin.end()
    await client.waitForExit(2000)
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
