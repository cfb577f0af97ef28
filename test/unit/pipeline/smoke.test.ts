import { describe, expect, it } from "vitest"
import { newTurnState } from "../../../server/src/pipeline"
import { harness, text } from "./fixtures"

describe("smoke", () => {
  it("runs read_file in code mode", async () => {
    const h = harness()
    const out = await h.pipeline.run(h.call("read_file", { path: "a.ts" }), newTurnState(), h.ctx)
    expect(out.status).toBe("done")
    expect(text(out.result)).toBe('read_file ok {"path":"a.ts","offset":1}')
    expect(h.ctx.updates).toEqual([
      { kind: "toolCall", callId: "call_1", tool: "read_file", params: { path: "a.ts", offset: 1 }, status: "running" },
      { kind: "toolCall", callId: "call_1", tool: "read_file", params: { path: "a.ts", offset: 1 }, status: "done" },
      { kind: "toolResult", callId: "call_1", tool: "read_file", isError: false, summary: 'read_file ok {"path":"a.ts","offset":1}' },
    ])
  })
})
