import { describe, expect, it } from "vitest"
import { anthropicBody, toAnthropicParams } from "../../../server/src/model/anthropic/anthropic-request"
import type { ModelContentBlock, ModelMessage, ModelRequest } from "../../../server/src/model/provider"

const EPHEMERAL = { type: "ephemeral" }

function request(messages: ModelMessage[]): ModelRequest {
  return {
    model: "claude-test",
    maxTokens: 100,
    system: 'System «prompt» with "quotes"\nand a newline.',
    messages,
    tools: [{ name: "read_file", description: "Reads.", inputSchema: { type: "object", properties: { path: { type: "string" } } } }],
  }
}

const result = (id: string, text: string): ModelContentBlock => ({
  type: "toolResult",
  toolUseId: id,
  isError: false,
  content: [{ type: "text", text }],
})

describe("anthropicBody", () => {
  it("is the Messages API request as JSON: system and the last two user turns carry cache breakpoints", () => {
    const messages: ModelMessage[] = [
      { role: "user", content: [{ type: "text", text: "go — ünïcode ✓" }] },
      { role: "assistant", content: [{ type: "toolUse", id: "t1", name: "read_file", input: { path: "a.ts" } }] },
      { role: "user", content: [result("t1", "one")] },
      {
        role: "assistant",
        content: [
          { type: "text", text: "next" },
          { type: "toolUse", id: "t2", name: "read_file", input: undefined },
        ],
      },
      { role: "user", content: [result("t2", "two"), { type: "text", text: "note" }] },
    ]
    const body = JSON.parse(anthropicBody(request(messages)).join(""))
    expect(body).toEqual({
      model: "claude-test",
      max_tokens: 100,
      stream: true,
      system: [{ type: "text", text: request([]).system, cache_control: EPHEMERAL }],
      tools: [{ name: "read_file", description: "Reads.", input_schema: request([]).tools[0]!.inputSchema }],
      messages: [
        { role: "user", content: [{ type: "text", text: "go — ünïcode ✓" }] },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "read_file", input: { path: "a.ts" } }] },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1", is_error: false, content: [{ type: "text", text: "one" }], cache_control: EPHEMERAL },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "text", text: "next" },
            { type: "tool_use", id: "t2", name: "read_file", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t2", is_error: false, content: [{ type: "text", text: "two" }] },
            { type: "text", text: "note", cache_control: EPHEMERAL },
          ],
        },
      ],
    })
  })

  it("sends each message as its own piece, so no request needs one buffer of the whole conversation", () => {
    const messages: ModelMessage[] = Array.from({ length: 6 }, (_, i) =>
      i % 2
        ? { role: "assistant", content: [{ type: "text", text: `a${i}` }] }
        : { role: "user", content: [{ type: "text", text: `u${i}` }] },
    )
    const pieces = anthropicBody(request(messages))
    expect(pieces).toHaveLength(messages.length + 2) // head, one per message, the closing brackets
    expect(Math.max(...pieces.slice(1).map((p) => p.length))).toBeLessThan(120)
  })

  it("makes a block's wire form once: a later request reuses it instead of converting the history again", () => {
    const first: ModelMessage = { role: "user", content: [{ type: "text", text: "first" }] }
    const reply: ModelMessage = { role: "assistant", content: [{ type: "text", text: "reply" }] }
    const before = toAnthropicParams(request([first, reply, { role: "user", content: [{ type: "text", text: "second" }] }]))
    // History is append-only; were the block converted again, the change would show.
    ;(reply.content[0] as { text: string }).text = "changed in place"
    const after = toAnthropicParams(request([first, reply, { role: "user", content: [{ type: "text", text: "third" }] }]))
    expect(after.messages[1]).toEqual(before.messages[1])
    expect(after.messages[2]).toEqual({ role: "user", content: [{ type: "text", text: "third", cache_control: EPHEMERAL }] })
    // The breakpoint moved off the first turn's block without changing its cached form.
    expect(after.messages[0]).toEqual({ role: "user", content: [{ type: "text", text: "first", cache_control: EPHEMERAL }] })
  })

  it("leaves tools out when the request has none", () => {
    const body = toAnthropicParams({ ...request([{ role: "user", content: [{ type: "text", text: "x" }] }]), tools: [] })
    expect(body).not.toHaveProperty("tools")
  })
})
