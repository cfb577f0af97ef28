import { describe, expect, it } from "vitest"
import { withReadableInvalidParams } from "../../../../server/src/fronts/acp/invalid-params"

describe("withReadableInvalidParams", () => {
  it("names every wrong field of the SDK's zod tree in the message and keeps the data", () => {
    const data = {
      _errors: [],
      cwd: { _errors: ["Invalid input: expected string, received number"] },
      prompt: { "0": { _errors: [], text: { _errors: ["Invalid input: expected string, received undefined"] } } },
    }
    const out = withReadableInvalidParams({ jsonrpc: "2.0", id: 1, error: { code: -32602, message: "Invalid params", data } })
    expect(out.error).toEqual({
      code: -32602,
      message: "Invalid params: cwd: expected string, received number; prompt.0.text: expected string, received undefined",
      data,
    })
  })

  it("bounds the message: at most five fields, each shortened", () => {
    const data: Record<string, unknown> = { _errors: [] }
    for (let i = 0; i < 8; i++) data[`f${i}`] = { _errors: ["x".repeat(500)] }
    const message = withReadableInvalidParams({ error: { code: -32602, message: "Invalid params", data } }).error.message
    expect(message).toContain("(and 3 more)")
    expect(message.length).toBeLessThan(1200)
  })

  it("leaves other errors and messages of our own unchanged", () => {
    const own = { error: { code: -32602, message: "Invalid params: cwd must be an absolute path" } }
    expect(withReadableInvalidParams(own)).toBe(own)
    const other = { error: { code: -32601, message: "Invalid params", data: { _errors: ["x"] } } }
    expect(withReadableInvalidParams(other)).toBe(other)
    const result = { id: 1, result: {} }
    expect(withReadableInvalidParams(result)).toBe(result)
  })
})
