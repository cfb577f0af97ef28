import type { Connection } from "vscode-languageserver/node"
import { describe, expect, it } from "vitest"
import type { ClientFeatures } from "../../../../server/src/fronts/lsp/client-features"
import { TaskUpdateSender } from "../../../../server/src/fronts/lsp/task-updates"
import type { TaskEvent } from "../../../../server/src/task/events"

/** The part of a connection TaskUpdateSender uses, recording what it sends. */
function recordingConnection() {
  const sent: { what: string; token?: unknown; kind?: string }[] = []
  const connection = {
    onNotification: () => ({ dispose() {} }),
    sendNotification: async () => {},
    sendRequest: async (method: string, params: { token: string }) => void sent.push({ what: method, token: params.token }),
    sendProgress: async (_type: unknown, token: string, value: { kind: string }) =>
      void sent.push({ what: "$/progress", token, kind: value.kind }),
  }
  return { sent, connection: connection as unknown as Connection }
}

const features = (() => ({ workDoneProgress: true, agent: { taskUpdates: false } })) as unknown as () => ClientFeatures
const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe("task progress ($/progress)", () => {
  it("ends every progress it begins: events that trail the task's end begin no new one", async () => {
    const { sent, connection } = recordingConnection()
    const sender = new TaskUpdateSender(connection, features, () => {})
    const events: TaskEvent[] = [
      { kind: "status", status: "running" },
      { kind: "toolCall", callId: "c1", tool: "attempt_completion", params: {}, status: "running" },
      { kind: "completed", result: "done" },
      { kind: "status", status: "completed" },
      // What may still arrive after the end (VS Code showed a second progress that never ended).
      { kind: "usage", inputTokens: 1, outputTokens: 1 },
      { kind: "toolResult", callId: "c1", tool: "attempt_completion", isError: false, summary: "Task completed" },
    ] as TaskEvent[]
    for (const event of events) sender.send("t1", event)
    await settle()
    const begun = sent.filter((s) => s.what === "window/workDoneProgress/create").map((s) => s.token)
    const ended = sent.filter((s) => s.kind === "end").map((s) => s.token)
    expect(begun).toHaveLength(1)
    expect(ended).toEqual(begun)
  })

  it("begins a new progress when a finished task runs again (a message after completion)", async () => {
    const { sent, connection } = recordingConnection()
    const sender = new TaskUpdateSender(connection, features, () => {})
    sender.send("t1", { kind: "status", status: "running" } as TaskEvent)
    sender.send("t1", { kind: "status", status: "completed" } as TaskEvent)
    await settle()
    sender.send("t1", { kind: "status", status: "running" } as TaskEvent)
    sender.send("t1", { kind: "status", status: "completed" } as TaskEvent)
    await settle()
    const begun = sent.filter((s) => s.what === "window/workDoneProgress/create").map((s) => s.token)
    expect(begun).toHaveLength(2)
    expect(sent.filter((s) => s.kind === "end").map((s) => s.token)).toEqual(begun)
  })
})
