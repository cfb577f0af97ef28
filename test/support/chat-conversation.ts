import type { ModelRequest } from "../../server/src/model/provider"

/**
 * A request with every shape the Chat Completions conversion knows: text in several blocks (unicode,
 * quotes, newlines), tool calls (one without input), tool results (failed, empty, with images), a user's
 * own image, and messages of only tool calls or only tool results. Fresh objects on every call.
 */
export function everyShapeRequest(model = "gpt-4o"): ModelRequest {
  const png = { type: "image" as const, mediaType: "image/png" as const, base64: "iVBORw0KGgo=" }
  return {
    model,
    maxTokens: 4096,
    system: 'You are a "test".\nUse tools — ✓ ünïcode 😀.',
    tools: [
      { name: "read_file", description: "Reads a file.", inputSchema: { type: "object", properties: { path: { type: "string" } } } },
      { name: "attempt_completion", description: "Ends.", inputSchema: { type: "object", properties: {} } },
    ],
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "Fix the \\bug\\ in\ta.ts 😀" },
          { type: "text", text: "<environment_details>\nopen: a.ts\n</environment_details>" },
        ],
      },
      {
        role: "assistant",
        content: [
          { type: "text", text: "Reading " },
          { type: "text", text: "both." },
          { type: "toolUse", id: "call_1", name: "read_file", input: { path: "a.ts" } },
          { type: "toolUse", id: "call_2", name: "attempt_completion", input: undefined },
        ],
      },
      {
        role: "user",
        content: [
          { type: "toolResult", toolUseId: "call_1", isError: false, content: [{ type: "text", text: "1 | const a = 1\n" }, png] },
          { type: "toolResult", toolUseId: "call_2", isError: true, content: [] },
          { type: "text", text: "and this screenshot:" },
          { ...png, mediaType: "image/jpeg", base64: "/9j/4AAQ" },
        ],
      },
      { role: "assistant", content: [{ type: "toolUse", id: "call_3", name: "read_file", input: { path: "b.ts" } }] },
      {
        role: "user",
        content: [{ type: "toolResult", toolUseId: "call_3", isError: true, content: [{ type: "text", text: "Not found" }] }],
      },
      { role: "assistant", content: [{ type: "text", text: "Done." }] },
    ],
  }
}
