import type { ToolDefinition, ToolResult, PreparedCall } from "../../../../server/src/tools/tool"
import type { ToolContext } from "../../../../server/src/tools/context"

/** Parses params like the pipeline does, prepares, and runs when prepare did not answer at once. */
export async function callTool(tool: ToolDefinition, params: unknown, ctx: ToolContext): Promise<ToolResult & { prepared?: PreparedCall }> {
  const parsed = tool.params.parse(params)
  const outcome = await tool.prepare(parsed, ctx)
  if ("result" in outcome) return outcome.result
  return { ...(await outcome.run()), prepared: outcome }
}

/** The text blocks of a result, joined. */
export function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : `[${c.type}]`)).join("\n")
}
