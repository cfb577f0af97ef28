import { describe, expect, it } from "vitest"
import { maxTokensFieldFor, OPENAI_DEFAULT_BASE_URL } from "../../../server/src/model/openai/openai-provider"
import { chatBody, IMAGE_NOTE, toChatParams } from "../../../server/src/model/openai/openai-request"
import type { ModelContentBlock, ModelMessage, ModelRequest } from "../../../server/src/model/provider"
import { oldChatParams } from "../../../bench/baseline/old-chat-params"
import { everyShapeRequest } from "../../support/chat-conversation"

const base: ModelRequest = { model: "m", maxTokens: 100, system: "s", messages: [], tools: [] }

describe("toChatParams", () => {
  it("asks OpenAI's own API for max_completion_tokens and every other server for max_tokens", () => {
    expect(maxTokensFieldFor(OPENAI_DEFAULT_BASE_URL)).toBe("max_completion_tokens")
    for (const url of ["https://openrouter.ai/api/v1", "http://localhost:11434/v1", "http://127.0.0.1:1234/v1", "not a url"])
      expect(maxTokensFieldFor(url)).toBe("max_tokens")
    const params = toChatParams(base, { images: false, maxTokensField: "max_completion_tokens" }) as unknown as Record<string, unknown>
    expect(params.max_completion_tokens).toBe(100)
    expect(params.max_tokens).toBeUndefined()
    expect(params.tools).toBeUndefined()
  })

  it("marks a failed tool result as an error and never sends an empty tool message", () => {
    const params = toChatParams(
      {
        ...base,
        messages: [
          {
            role: "assistant",
            content: [
              { type: "toolUse", id: "c1", name: "read_file", input: {} },
              { type: "toolUse", id: "c2", name: "list_files", input: {} },
            ],
          },
          {
            role: "user",
            content: [
              { type: "toolResult", toolUseId: "c1", isError: true, content: [{ type: "text", text: "File not found: a.ts" }] },
              { type: "toolResult", toolUseId: "c2", isError: false, content: [] },
            ],
          },
        ],
      },
      { images: true, maxTokensField: "max_tokens" },
    )
    expect(params.messages.slice(1)).toEqual([
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "c1", type: "function", function: { name: "read_file", arguments: "{}" } },
          { id: "c2", type: "function", function: { name: "list_files", arguments: "{}" } },
        ],
      },
      { role: "tool", tool_call_id: "c1", content: "Error: File not found: a.ts" },
      { role: "tool", tool_call_id: "c2", content: "(no output)" },
    ])
  })

  it("turns a user's own image into an image_url part, or the note for a model without vision", () => {
    const request: ModelRequest = {
      ...base,
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", mediaType: "image/jpeg", base64: "AAAA" },
          ],
        },
      ],
    }
    expect(toChatParams(request, { images: true, maxTokensField: "max_tokens" }).messages[1]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "look" },
        { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA" } },
      ],
    })
    expect(toChatParams(request, { images: false, maxTokensField: "max_tokens" }).messages[1]).toEqual({
      role: "user",
      content: `look\n\n${IMAGE_NOTE}`,
    })
  })
})

describe("chatBody", () => {
  it("writes byte for byte the JSON the object conversion (and the SDK's JSON.stringify) sent before", () => {
    for (const images of [true, false])
      for (const maxTokensField of ["max_tokens", "max_completion_tokens"] as const) {
        const request = everyShapeRequest()
        const old = oldChatParams(request, { images, maxTokensField })
        expect(chatBody(request, { images, maxTokensField }).pieces.join("")).toBe(JSON.stringify(old))
        // A server that refused stream_options gets the same request without the field.
        const { stream_options: _, ...bare } = old
        expect(chatBody(request, { images, maxTokensField, streamOptions: false }).pieces.join("")).toBe(JSON.stringify(bare))
      }
    const noTools = { ...everyShapeRequest(), tools: [] }
    const old = oldChatParams(noTools, { images: true, maxTokensField: "max_tokens" })
    expect(old).not.toHaveProperty("tools")
    expect(chatBody(noTools, { images: true, maxTokensField: "max_tokens" }).pieces.join("")).toBe(JSON.stringify(old))
  })

  it("estimates input tokens as before: a quarter of the characters of the messages and tools", () => {
    const request = everyShapeRequest()
    const old = oldChatParams(request, { images: true, maxTokensField: "max_tokens" })
    const expected = Math.ceil(JSON.stringify(old.messages).length / 4 + JSON.stringify(old.tools).length / 4)
    expect(chatBody(request, { images: true, maxTokensField: "max_tokens" }).estimatedInput).toBe(expected)
    expect(chatBody({ ...request, tools: [] }, { images: true, maxTokensField: "max_tokens" }).estimatedInput).toBe(
      Math.ceil(JSON.stringify(old.messages).length / 4 + 2 / 4),
    )
  })

  it("serializes a block once: the next request of the task reuses its JSON instead of reading the block again", () => {
    let textReads = 0
    let inputReads = 0
    const text = {
      type: "text" as const,
      get text() {
        textReads++
        return "first turn"
      },
    }
    const call = {
      type: "toolUse" as const,
      id: "c1",
      name: "read_file",
      get input() {
        inputReads++
        return { path: "a.ts" }
      },
    }
    const result: ModelContentBlock = { type: "toolResult", toolUseId: "c1", isError: false, content: [{ type: "text", text: "one" }] }
    const history: ModelMessage[] = [
      { role: "user", content: [text] },
      { role: "assistant", content: [call] },
      { role: "user", content: [result] },
    ]
    const options = { images: false, maxTokensField: "max_tokens" } as const
    const first = chatBody({ ...base, messages: history }, options).pieces.join("")
    // History is append-only; were the result converted again, this change would show.
    ;(result.content[0] as { text: string }).text = "changed in place"
    const next: ModelMessage[] = [...history, { role: "assistant", content: [{ type: "text", text: "more" }] }]
    const second = chatBody({ ...base, messages: next }, options).pieces.join("")
    expect(textReads).toBe(1)
    expect(inputReads).toBe(1)
    expect(second.startsWith(first.slice(0, first.indexOf('],"stream"')))).toBe(true)
    expect(JSON.parse(second).messages[3]).toEqual({ role: "tool", tool_call_id: "c1", content: "one" })
  })
})
