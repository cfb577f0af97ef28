import { describe, expect, it } from "vitest"
import { envelopeProblem } from "../../../../server/src/fronts/lsp/wire/envelope"

describe("envelopeProblem", () => {
  it("accepts requests, notifications and responses as JSON-RPC 2.0 defines them", () => {
    expect(envelopeProblem({ jsonrpc: "2.0", id: 1, method: "m" })).toBeUndefined()
    expect(envelopeProblem({ jsonrpc: "2.0", id: "a", method: "m", params: {} })).toBeUndefined()
    expect(envelopeProblem({ jsonrpc: "2.0", method: "m" })).toBeUndefined()
    expect(envelopeProblem({ jsonrpc: "2.0", id: 3, result: null })).toBeUndefined()
    expect(envelopeProblem({ jsonrpc: "2.0", id: null, error: { code: 1, message: "x" } })).toBeUndefined()
  })

  it("refuses ids of the wrong type with InvalidRequest and id null", () => {
    for (const id of [{}, [1], true, null, Number.POSITIVE_INFINITY, Number.NaN])
      expect(envelopeProblem({ jsonrpc: "2.0", id, method: "m" }), String(id)).toMatchObject({ code: -32600, id: null })
  })

  it("answers a non-string method with the request's own id", () => {
    expect(envelopeProblem({ jsonrpc: "2.0", id: 9, method: 5 })).toMatchObject({
      code: -32600,
      id: 9,
      reason: "the method must be a string",
    })
  })

  it("refuses batches, non-objects and objects without jsonrpc 2.0", () => {
    for (const message of [[], [{ jsonrpc: "2.0", id: 1, method: "m" }], null, "x", 5, { id: 1, method: "m" }, { jsonrpc: "1.0" }])
      expect(envelopeProblem(message), JSON.stringify(message)).toMatchObject({ code: -32600, id: null })
    expect(envelopeProblem([])?.reason).toContain("batches are not supported")
    expect(envelopeProblem({ jsonrpc: "2.0" })?.reason).toContain('neither a "method"')
  })
})
