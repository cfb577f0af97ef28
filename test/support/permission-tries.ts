import type { FakeReply, RecordedRequest } from "./fake-anthropic"

/**
 * What the fake model tries in the permission-mode tests of every front: an edit, a command, an MCP call
 * (server-everything's toggle-simulated-logging, a tool with side effects: echo is marked read-only, which
 * autoApprove.read covers) and a subtask; then it finishes. When the subtask runs it takes the first
 * attempt_completion, and the parent the second.
 */
export const TRIES: FakeReply[] = [
  { toolCalls: [{ id: "toolu_edit", name: "write_to_file", input: { path: "a.txt", content: "x\n" } }] },
  { toolCalls: [{ id: "toolu_cmd", name: "execute_command", input: { command: "echo ran > ran.txt" } }] },
  { toolCalls: [{ id: "toolu_mcp", name: "mcp--everything--toggle-simulated-logging", input: {} }] },
  { toolCalls: [{ id: "toolu_sub", name: "new_task", input: { mode: "ask", message: "say done" } }] },
  { toolCalls: [{ id: "toolu_done1", name: "attempt_completion", input: { result: "subtask done" } }] },
  { toolCalls: [{ id: "toolu_done2", name: "attempt_completion", input: { result: "done" } }] },
]

export type Try = "edit" | "command" | "mcp" | "subtask"
export const TRY_NAMES: Record<Try, string> = {
  edit: "write_to_file",
  command: "execute_command",
  mcp: "mcp--everything--toggle-simulated-logging",
  subtask: "new_task",
}
export const TRY_IDS: Record<Try, string> = { edit: "toolu_edit", command: "toolu_cmd", mcp: "toolu_mcp", subtask: "toolu_sub" }
export const ALL_TRIES: Try[] = ["edit", "command", "mcp", "subtask"]

/** The tool_result the model got for each try (from the requests the fake received). */
export function toldFor(requests: RecordedRequest[]): Record<Try, { text: string; isError: boolean } | undefined> {
  const results = requests.flatMap((r) => r.body.messages.at(-1).content).filter((b: any) => b.type === "tool_result")
  const of = (id: string) => {
    const block = results.find((b: any) => b.tool_use_id === id)
    if (!block) return undefined
    const text = typeof block.content === "string" ? block.content : block.content.map((b: any) => b.text ?? "").join("\n")
    return { text, isError: block.is_error === true }
  }
  return { edit: of("toolu_edit"), command: of("toolu_cmd"), mcp: of("toolu_mcp"), subtask: of("toolu_sub") }
}

/** The tries whose result says they were refused (the pipeline's "denied" status), in order. */
export function refusedOf(told: ReturnType<typeof toldFor>): Try[] {
  return ALL_TRIES.filter((t) => told[t]?.text.includes('"denied"'))
}
