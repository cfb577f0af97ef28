import type { ToolDefinition, ToolResult } from "../../../../server/src/tools/tool"
import type { ToolContext } from "../../../../server/src/tools/context"

/** Parses params like the pipeline, prepares, and runs (approval taken as given). */
export async function runTool(tool: ToolDefinition, params: unknown, ctx: ToolContext): Promise<ToolResult & { previewSubject?: unknown }> {
  const parsed = tool.params.parse(params)
  const outcome = await tool.prepare(parsed, ctx)
  if ("result" in outcome) return outcome.result
  return { ...(await outcome.run()), previewSubject: outcome.preview.subject }
}

export function text(result: ToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("")
}
