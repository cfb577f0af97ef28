import { PassThrough } from "node:stream"
import {
  createMessageConnection,
  ErrorCodes,
  NotificationType,
  RequestType,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node"
import { afterEach, describe, expect, it } from "vitest"
import { AgentProtocol, type ParamsOf, type ResultOf } from "@agent-lsp/protocol"

// Each side builds its own typed RequestType from a triple, as PROTOCOL.md says.
const newTask = new RequestType<ParamsOf<"newTask">, ResultOf<"newTask">, void>(AgentProtocol.newTask.method)
const taskUpdate = new NotificationType<ParamsOf<"taskUpdate">>(AgentProtocol.taskUpdate.method)

/** Two real JSON-RPC connections joined by an in-memory stream pair. */
function connectedPair(): { client: MessageConnection; server: MessageConnection } {
  const toServer = new PassThrough()
  const toClient = new PassThrough()
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer))
  const server = createMessageConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient))
  return { client, server }
}

let open: MessageConnection[] = []
afterEach(() => {
  for (const c of open) c.dispose()
  open = []
})

describe("typed requests over a real vscode-jsonrpc connection", () => {
  function start() {
    const pair = connectedPair()
    open.push(pair.client, pair.server)
    // The server validates params with the triple, answering bad ones with InvalidParams like the LSP front does.
    pair.server.onRequest(newTask, (params) => {
      const parsed = AgentProtocol.newTask.params.safeParse(params)
      if (!parsed.success) return new ResponseError(ErrorCodes.InvalidParams, parsed.error.issues[0]!.message)
      return AgentProtocol.newTask.result.parse({ taskId: `task-${parsed.data.text.length}` })
    })
    pair.server.listen()
    pair.client.listen()
    return pair
  }

  it("sends agent/newTask and gets a result that parses with the result schema", async () => {
    const { client } = start()
    const result = await client.sendRequest(newTask, { text: "hello", mode: "code" })
    expect(AgentProtocol.newTask.result.parse(result)).toEqual({ taskId: "task-5" })
  })

  it("answers invalid params with InvalidParams carrying the zod message", async () => {
    const { client } = start()
    const error = await client.sendRequest(newTask, { text: "" }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseError)
    expect((error as ResponseError<unknown>).code).toBe(ErrorCodes.InvalidParams)
    expect((error as ResponseError<unknown>).message).toBe("text must not be empty")
  })

  it("delivers an agent/taskUpdate notification that parses on the receiving side", async () => {
    const { client, server } = start()
    const received = new Promise<unknown>((resolve) => client.onNotification(taskUpdate, resolve))
    await server.sendNotification(taskUpdate, { taskId: "t1", seq: 1, update: { kind: "text", delta: "Reading" } })
    const params = AgentProtocol.taskUpdate.params.parse(await received)
    expect(params.update).toEqual({ kind: "text", delta: "Reading" })
  })
})
