import { fileURLToPath } from "node:url"
import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { AgentCommands, AgentMethods, AgentProtocol } from "@agent-lsp/protocol"
import {
  FUZZ_RUNS,
  FUZZ_SEED,
  LSP_CLIENT_NOTIFICATIONS as NOTIFICATIONS,
  hostileParams,
  hostileValue,
  leaks,
  rawMessage,
} from "../support/hostile-json"
import { initializedRawClient, initializeParams, RawClient } from "../support/raw-client"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * The LSP front (`agent-lsp --stdio`, the built server) under hostile JSON-RPC: every request, notification
 * and command it handles, with hostile params (wrong types, missing and extra fields, prototype keys, 2 MB
 * strings, 10,000 levels of nesting, Infinity, hostile URIs), odd ids and envelopes. After each: the server
 * lives and answers promptly, bad input is never InternalError, and no message leaks a stack or our path.
 */

const SERVER_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "")
const ANSWER_MS = 15_000

let client: RawClient | undefined
afterEach(() => {
  client?.kill()
  client = undefined
})

let nextId = 1
async function askRaw(c: RawClient, method: string, params: string | undefined): Promise<any> {
  const id = nextId++
  const body = rawMessage(method, id, params)
  c.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
  return c.response(id, ANSWER_MS)
}

async function stillServing(c: RawClient): Promise<void> {
  const answer = await askRaw(c, AgentMethods.listModes, "{}")
  expect(answer.result?.modes?.length, JSON.stringify(answer).slice(0, 500)).toBeGreaterThan(0)
  expect(c.exitCode).toBeUndefined()
}

function expectNoBadError(answer: any, what: string): void {
  const error = answer.error
  if (!error) return
  expect(error.code, `${what} → ${JSON.stringify(answer).slice(0, 500)}`).not.toBe(-32603)
  expect([-32600, -32601, -32602, -32002, -32800], `${what} → ${JSON.stringify(error).slice(0, 300)}`).toContain(error.code)
  expect(leaks(String(error.message), SERVER_ROOT), `${what} → ${String(error.message).slice(0, 300)}`).toBeUndefined()
}

const AGENT_REQUESTS = Object.values(AgentProtocol)
  .filter((t) => t.direction === "clientToServer" && t.kind === "request")
  .map((t) => t.method)
const REQUESTS = [...AGENT_REQUESTS, "initialize", "textDocument/codeAction", "textDocument/codeLens", "workspace/executeCommand"]
const FIELDS = [
  "text",
  "taskId",
  "id",
  "toId",
  "mode",
  "requestId",
  "optionId",
  "answer",
  "rewindConversation",
  "context",
  "decisions",
  "textDocument",
  "range",
  "contentChanges",
  "settings",
  "event",
  "changes",
  "token",
  "value",
  "command",
  "arguments",
  "capabilities",
]

const commandParams = fc
  .tuple(fc.constantFrom(...Object.values(AgentCommands), "__proto__", "constructor"), fc.array(hostileValue, { maxLength: 3 }))
  .map(([command, args]) => `{"command":${JSON.stringify(command)},"arguments":[${args.join(",")}]}`)

describe("the LSP front under hostile JSON-RPC", () => {
  it("answers every request with hostile params without InternalError or a leak, ignores such notifications, and lives", async () => {
    client = await initializedRawClient((await tempWorkspace({ "a.txt": "a\n" })).root)
    const c = client
    const message = fc.oneof(
      fc.tuple(fc.constantFrom(...REQUESTS), hostileParams(FIELDS), fc.constant(true)),
      fc.tuple(fc.constant("workspace/executeCommand"), commandParams, fc.constant(true)),
      fc.tuple(fc.constantFrom(...NOTIFICATIONS, ...AGENT_REQUESTS), hostileParams(FIELDS), fc.constant(false)),
      // A notification sent as a request: MethodNotFound, never a handler run for it.
      fc.tuple(fc.constantFrom(...NOTIFICATIONS), hostileParams(FIELDS), fc.constant(true)),
    )
    await fc.assert(
      fc.asyncProperty(message, async ([method, params, isRequest]) => {
        const what = `${method} ${String(params).slice(0, 200)}`
        if (isRequest) {
          const answer = await askRaw(c, method, params)
          expectNoBadError(answer, what)
          // A task the junk started is cancelled at once, so the next newTask is not refused as busy.
          if (answer.result?.taskId) await askRaw(c, AgentMethods.cancelTask, JSON.stringify({ taskId: answer.result.taskId }))
        } else {
          const body = rawMessage(method, undefined, params)
          c.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
        }
        await stillServing(c)
      }),
      { numRuns: FUZZ_RUNS ?? 150, seed: FUZZ_SEED },
    )
    for (const m of c.messages.filter((m) => m.method === "window/logMessage"))
      expect(leaks(String(m.params?.message), SERVER_ROOT), String(m.params?.message).slice(0, 300)).toBeUndefined()
  }, 120_000)

  it("answers textDocument/codeLens without a textDocument with InvalidParams, not InternalError", async () => {
    client = await initializedRawClient((await tempWorkspace()).root)
    for (const params of ["null", "{}", '{"textDocument":null}']) {
      const answer = await askRaw(client, "textDocument/codeLens", params)
      expect(answer.error, params).toMatchObject({ code: -32602, message: expect.stringContaining("textDocument/codeLens") })
    }
    await stillServing(client)
  })

  it("answers context URIs that do not decode or hold a NUL with InvalidParams naming the field", async () => {
    client = await initializedRawClient((await tempWorkspace()).root)
    for (const uri of ["file:///%", "file:///%E0%A4%A", "file:///a/%00b", "file:///a\u0000b"]) {
      const answer = await askRaw(client, AgentMethods.newTask, JSON.stringify({ text: "look", context: [{ uri }] }))
      expect(answer.error, uri).toMatchObject({ code: -32602, message: expect.stringContaining("context.0.uri") })
      const command = await askRaw(
        client,
        "workspace/executeCommand",
        JSON.stringify({ command: AgentCommands.newTask, arguments: ["look", { uri }] }),
      )
      expect(command.error, uri).toMatchObject({ code: -32602 })
    }
    await stillServing(client)
  })

  it("refuses an initialize whose processId is beyond LSP's integer range instead of exiting right after it", async () => {
    for (const processId of ["1e20", "2147483648", "-2147483649"]) {
      const c = RawClient.start()
      client = c
      const body = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"processId":${processId},"capabilities":{}}}`
      c.sendRaw(`Content-Length: ${body.length}\r\n\r\n${body}`)
      expect((await c.response(0, ANSWER_MS)).error, processId).toMatchObject({
        code: -32602,
        message: expect.stringContaining("params.processId"),
      })
      c.send({ id: 1, method: "initialize", params: initializeParams((await tempWorkspace()).root) })
      expect((await c.response(1, ANSWER_MS)).result?.capabilities, processId).toBeTruthy()
      expect(c.exitCode, processId).toBeUndefined()
      c.kill()
    }
  }, 60_000)

  it("answers a 2 MB task id with a short InvalidParams instead of echoing it back", async () => {
    client = await initializedRawClient((await tempWorkspace()).root)
    const taskId = "x".repeat(2 * 1024 * 1024)
    for (const method of [AgentMethods.getTask, AgentMethods.cancelTask, AgentMethods.sendMessage]) {
      const answer = await askRaw(client, method, JSON.stringify({ taskId, text: "hi" }))
      expect(answer.error, method).toMatchObject({ code: -32602, message: expect.stringContaining("at most 200 characters") })
      expect(answer.error.message.length).toBeLessThan(500)
    }
    await stillServing(client)
  })

  it("answers ids of the wrong type, batches and messages without jsonrpc 2.0 with InvalidRequest, never silence", async () => {
    client = await initializedRawClient((await tempWorkspace()).root)
    const cases: [string, number | null][] = [
      ['{"jsonrpc":"2.0","id":{},"method":"agent/listTasks","params":{}}', null],
      ['{"jsonrpc":"2.0","id":[1],"method":"agent/listTasks","params":{}}', null],
      ['{"jsonrpc":"2.0","id":true,"method":"agent/listTasks","params":{}}', null],
      ['{"jsonrpc":"2.0","id":null,"method":"agent/listTasks","params":{}}', null],
      ['{"jsonrpc":"2.0","id":1e400,"method":"agent/listTasks","params":{}}', null],
      ['{"jsonrpc":"2.0","id":4242,"method":5}', 4242],
      ['[{"jsonrpc":"2.0","id":4243,"method":"agent/listTasks","params":{}}]', null],
      ["[]", null],
      ['{"id":4244,"method":"agent/listTasks"}', null],
      ['{"jsonrpc":"2.0"}', null],
    ]
    for (const [body, id] of cases) {
      const before = client.messages.length
      client.sendRaw(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`)
      const answer = await client.waitFor((m) => client!.messages.indexOf(m) >= before && m.error?.code === -32600, ANSWER_MS)
      expect(answer.id, body).toBe(id)
      expect(answer.error.message, body).toMatch(/^Invalid request: .+\. The message was skipped\.$/)
      await stillServing(client)
    }
    // The requests inside the batch were not run.
    expect(client.messages.some((m) => m.id === 4243 && "result" in m)).toBe(false)
  })

  it("survives Content-Length headers that lie (bigger, smaller, negative, huge) and headers without a body", async () => {
    client = await initializedRawClient((await tempWorkspace()).root)
    const body = (id: number) => rawMessage(AgentMethods.listTasks, id, "{}")
    const frames = [
      `Content-Length: ${body(4301).length + 40}\r\n\r\n${body(4301)}`,
      `Content-Length: ${body(4302).length - 15}\r\n\r\n${body(4302)}`,
      `Content-Length: -5\r\n\r\n${body(4303)}`,
      `Content-Length: 99999999999999999999\r\n\r\n${body(4304)}`,
      "Content-Length: 0x10\r\n\r\n{}",
      "Content-Length: 200\r\n\r\n",
      "Content-Length: 2\r\nContent-Length: 100\r\n\r\n{}",
      // Too long for a body that is not JSON: the next request's header must not be eaten as its rest.
      `Content-Length: ${body(4305).length}\r\n\r\n{not json at all, padded to nothing}`,
    ]
    for (const frame of frames) {
      client.sendRaw(frame)
      await stillServing(client)
    }
    const errors = client.messages.filter((m) => m.error).map((m) => m.error.code)
    expect(
      errors.every((code) => code === -32700 || code === -32600 || code === -32602),
      JSON.stringify(errors),
    ).toBe(true)
  })
})
