import { z } from "zod"
import { defineTool, errorResult, type ToolGroupOrAlways } from "./tool"

/** A registered tool that does not exist in this build yet: never offered, and refused if called. */
export function notBuiltTool(name: string, group: ToolGroupOrAlways) {
  return defineTool({
    name,
    group,
    params: z.object({}).passthrough(),
    description: `${name} is not available in this build.`,
    available: () => false,
    async prepare() {
      return { result: errorResult(`Tool "${name}" is not available here: it is not part of this build of agent-lsp. Use another tool.`) }
    },
  })
}
