import { PassThrough } from "node:stream"
import { describe, expect, it } from "vitest"
import { MAX_MESSAGE_BYTES, ResilientMessageReader } from "../../../../server/src/fronts/lsp/wire/resilient-reader"

function frame(body: string, length = Buffer.byteLength(body)): string {
  return `Content-Length: ${length}\r\n\r\n${body}`
}

function setup() {
  const input = new PassThrough()
  const failures: string[] = []
  const messages: any[] = []
  const reader = new ResilientMessageReader(input, (f) => failures.push(f.reason))
  reader.listen((m) => messages.push(m))
  return { input, failures, messages }
}

const ping = (id: number) => JSON.stringify({ jsonrpc: "2.0", id, method: "ping" })

describe("ResilientMessageReader", () => {
  it("reads messages split across chunks and several in one chunk", () => {
    const { input, messages } = setup()
    const both = frame(ping(1)) + frame(ping(2))
    input.write(both.slice(0, 10))
    input.write(both.slice(10))
    expect(messages.map((m) => m.id)).toEqual([1, 2])
  })

  it("reports malformed JSON and keeps reading the next message", () => {
    const { input, messages, failures } = setup()
    input.write(frame("{not json") + frame(ping(3)))
    expect(failures).toEqual(["the message body is not valid JSON"])
    expect(messages.map((m) => m.id)).toEqual([3])
  })

  it("reports a malformed last message after waiting briefly for more bytes", async () => {
    const { input, messages, failures } = setup()
    input.write(frame("{broken"))
    expect(failures).toEqual([])
    await new Promise((r) => setTimeout(r, 400))
    expect(failures).toEqual(["the message body is not valid JSON"])
    input.write(frame(ping(12)))
    expect(messages.map((m) => m.id)).toEqual([12])
  })

  it("recovers a too-short Content-Length when the rest of the message arrives in a later chunk", () => {
    const { input, messages, failures } = setup()
    const data = frame(ping(13), 10)
    input.write(data.slice(0, 30))
    input.write(data.slice(30))
    expect(messages.map((m) => m.id)).toEqual([13])
    expect(failures).toEqual([])
  })

  it("recovers a message whose Content-Length is too short", () => {
    const { input, messages } = setup()
    input.write(frame(ping(4), 10) + frame(ping(5)))
    expect(messages.map((m) => m.id)).toEqual([4, 5])
  })

  it("recovers a message whose Content-Length is too long once the next header arrives", () => {
    const { input, messages } = setup()
    input.write(frame(ping(6), 500))
    expect(messages).toEqual([])
    input.write(frame(ping(7)))
    expect(messages.map((m) => m.id)).toEqual([6, 7])
  })

  it("skips a header without Content-Length and garbage between messages", () => {
    const { input, messages, failures } = setup()
    input.write(`Content-Type: x\r\n\r\n${ping(8)}garbage${frame(ping(9))}`)
    expect(messages.map((m) => m.id)).toEqual([9])
    expect(failures.length).toBeGreaterThan(0)
  })

  it("accepts a 10 MB message delivered in 64 KB chunks", () => {
    const { input, messages } = setup()
    const big = JSON.stringify({ jsonrpc: "2.0", method: "textDocument/didOpen", params: { text: "x".repeat(10 * 1024 * 1024) } })
    const data = Buffer.from(frame(big) + frame(ping(10)))
    for (let i = 0; i < data.length; i += 65536) input.write(data.subarray(i, i + 65536))
    expect(messages.map((m) => m.id ?? m.method)).toEqual(["textDocument/didOpen", 10])
    expect(messages[0].params.text.length).toBe(10 * 1024 * 1024)
  })

  it("rejects JSON that is not a JSON-RPC 2.0 message", () => {
    const { input, messages, failures } = setup()
    input.write(frame(JSON.stringify({ id: 1, method: "x" })) + frame(ping(11)))
    expect(failures).toEqual([expect.stringContaining("the message is not a JSON-RPC 2.0 object")])
    expect(messages.map((m) => m.id)).toEqual([11])
  })
})

describe("ResilientMessageReader bounds what a client can make it buffer", () => {
  it("refuses a Content-Length over the limit, drops what follows as garbage and reads the next message", () => {
    const { input, messages, failures } = setup()
    input.write(`Content-Length: ${MAX_MESSAGE_BYTES + 1}\r\n\r\n`)
    for (let i = 0; i < 50; i++) input.write("x".repeat(64 * 1024))
    input.write(frame(ping(5)))
    // (The dropped body's last bytes before the next header are reported as garbage too.)
    expect(failures[0]).toBe(`a message of ${MAX_MESSAGE_BYTES + 1} bytes, over the ${MAX_MESSAGE_BYTES}-byte limit`)
    expect(messages.map((m) => m.id)).toEqual([5])
  })

  it("drops a header that never ends instead of buffering it, and reads the next message", () => {
    const { input, messages, failures } = setup()
    input.write(`Content-Length: 5 ${"a".repeat(9000)}`)
    input.write(frame(ping(6)))
    expect(failures).toEqual(["a message header longer than 8192 bytes"])
    expect(messages.map((m) => m.id)).toEqual([6])
  })
})

describe("ResilientMessageReader with frames arriving together", () => {
  it("recovers a too-long Content-Length when the next message came in the same chunk", () => {
    const { input, messages } = setup()
    input.write(frame(ping(14), Buffer.byteLength(ping(14)) + 50) + frame(ping(15)))
    expect(messages.map((m) => m.id)).toEqual([14, 15])
  })
})
