import { describe, expect, it } from "vitest"
import { maxTokensFieldFor, OPENAI_DEFAULT_BASE_URL } from "../../../server/src/model/openai/openai-provider"
import { IMAGE_NOTE, toChatParams } from "../../../server/src/model/openai/openai-request"
import type { ModelRequest } from "../../../server/src/model/provider"

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
