import { notBuiltTool } from "./not-built"

/** Placeholder until the tool is built: registered, never offered, refused with a clear message if called. */
export const useMcpTool = notBuiltTool("use_mcp_tool", "mcp")
