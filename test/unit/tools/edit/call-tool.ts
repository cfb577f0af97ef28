import type { ToolDefinition, Preview, ToolResult } from "../../../../server/src/tools/tool"
import type { ToolContext } from "../../../../server/src/tools/context"

/** Runs a tool the way the pipeline does (parse params, prepare, run), without approval. */
export async function callTool(
  tool: ToolDefinition,
  params: unknown,
  ctx: ToolContext,
  editedText?: string,
): Promise<{ result: ToolResult; preview?: Preview }> {
  const prepared = await tool.prepare(tool.params.parse(params), ctx)
  if ("result" in prepared) return { result: prepared.result }
  const result = await prepared.run(editedText !== undefined ? { editedText } : undefined)
  return { result, preview: prepared.preview }
}

export function text(result: ToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("")
}
