import fc from "fast-check"
import { afterEach, describe, expect, it } from "vitest"
import { AgentMethods, AgentProtocol } from "@agent-lsp/protocol"
import { initializedRawClient, type RawClient } from "../support/raw-client"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * Hostile input at the wire, through the built server: method names that are Object.prototype members,
 * params a handler would have turned into a path, a git revision or an option, and generated junk for every
 * agent/* request. None may end the server, and none may be answered with InternalError (-32603).
 */

let client: RawClient | undefined
afterEach(() => {
  client?.kill()
  client = undefined
})

async function initialized(): Promise<RawClient> {
  return initializedRawClient((await tempWorkspace({ "a.txt": "a\n" })).root)
}

let nextId = 1
async function ask(c: RawClient, method: string, params?: unknown): Promise<any> {
  const id = nextId++
  c.send({ id, method, ...(params === undefined ? {} : { params }) })
  return c.response(id, 10_000)
}

async function stillServing(c: RawClient): Promise<void> {
  const answer = await ask(c, AgentMethods.listModes, {})
  expect(answer.result?.modes?.length, JSON.stringify(answer)).toBeGreaterThan(0)
  expect(c.exitCode).toBeUndefined()
}

const PROTOTYPE_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "__defineGetter__"]
const CLIENT_REQUESTS = Object.values(AgentProtocol)
  .filter((t) => t.direction === "clientToServer" && t.kind === "request")
  .map((t) => t.method)

describe("hostile input at the wire", () => {
  it("answers requests named like Object.prototype members with MethodNotFound, ignores such notifications, and lives", async () => {
    client = await initialized()
    for (const method of PROTOTYPE_NAMES) {
      client.send({ method, params: {} })
      expect((await ask(client, method, {})).error, method).toMatchObject({ code: -32601 })
      expect((await ask(client, "workspace/executeCommand", { command: method, arguments: [] })).error?.code).toBe(-32602)
      await stillServing(client)
    }
  })

  it("answers context URIs with a host or an encoded slash with InvalidParams naming the field", async () => {
    client = await initialized()
    for (const uri of ["file://evil.example/etc/passwd", "file:///tmp%2Fetc/passwd", "file:///a%5cb"]) {
      const answer = await ask(client, AgentMethods.newTask, { text: "look", context: [{ uri }] })
      expect(answer.error, uri).toMatchObject({ code: -32602, message: expect.stringContaining("context.0.uri") })
      const command = await ask(client, "workspace/executeCommand", { command: "agent.newTask", arguments: ["look", { uri }] })
      expect(command.error, uri).toMatchObject({ code: -32602 })
    }
    await stillServing(client)
  })

  it("answers checkpoint ids that are paths, refs or options, and unknown ones, with InvalidParams", async () => {
    client = await initialized()
    for (const id of ["../", "HEAD", "--output=/dev/null", "refs/heads/checkpoints", "a".repeat(40)]) {
      for (const method of [AgentMethods.diffCheckpoint, AgentMethods.restoreCheckpoint]) {
        const answer = await ask(client, method, { id })
        expect(answer.error, `${method} ${id}`).toMatchObject({ code: -32602, message: expect.stringContaining("id") })
      }
      const toId = await ask(client, AgentMethods.diffCheckpoint, { id: "b".repeat(40), toId: id })
      expect(toId.error?.code, id).toBe(-32602)
      const command = await ask(client, "workspace/executeCommand", { command: "agent.diffCheckpoint", arguments: [id] })
      expect(command.error?.code, id).toBe(-32602)
    }
    const wrongType = await ask(client, AgentMethods.restoreCheckpoint, { id: "c".repeat(40), rewindConversation: "yes" })
    expect(wrongType.error).toMatchObject({ code: -32602, message: expect.stringContaining("rewindConversation") })
    await stillServing(client)
  })

  it("never answers generated junk params of any agent/* request with InternalError", async () => {
    client = await initialized()
    const c = client
    const hostileString = fc.oneof(
      fc.string(),
      fc.constantFrom(
        "../",
        "HEAD",
        "--output=/dev/null",
        "file://h/x",
        "file:///a%2Fb",
        "__proto__",
        "constructor",
        "\u0000",
        "a".repeat(40),
      ),
    )
    const junk = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.record(
        {
          text: hostileString,
          taskId: fc.oneof(hostileString, fc.jsonValue({ maxDepth: 1 })),
          id: fc.oneof(hostileString, fc.jsonValue({ maxDepth: 1 })),
          toId: hostileString,
          mode: fc.oneof(hostileString, fc.integer()),
          requestId: hostileString,
          optionId: hostileString,
          rewindConversation: fc.jsonValue({ maxDepth: 1 }),
          context: fc.oneof(
            fc.array(fc.record({ uri: hostileString, range: fc.jsonValue({ maxDepth: 2 }) })),
            fc.jsonValue({ maxDepth: 2 }),
          ),
          decisions: fc.jsonValue({ maxDepth: 2 }),
          __proto__: fc.jsonValue({ maxDepth: 1 }),
        },
        { requiredKeys: [] },
      ),
    )
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CLIENT_REQUESTS), junk, async (method, params) => {
        const answer = await ask(c, method, params)
        expect(answer.error?.code, `${method} ${JSON.stringify(params)} → ${JSON.stringify(answer)}`).not.toBe(-32603)
        // A task the junk started is cancelled at once: the next newTask must not be refused as busy forever.
        if (answer.result?.taskId) await ask(c, AgentMethods.cancelTask, { taskId: answer.result.taskId })
        await stillServing(c)
      }),
      { numRuns: 150, seed: 22 },
    )
  })
})
