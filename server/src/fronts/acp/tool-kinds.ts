import { isAbsolute, resolve } from "node:path"
import type { ToolKind, ToolCallLocation } from "@agentclientprotocol/sdk"
import { paramsSummary } from "../../core/transcript/render"

/** ACP's tool kinds (the client picks an icon and may treat `edit`/`execute` specially) per tool. */
const KINDS: Record<string, ToolKind> = {
  read_file: "read",
  list_files: "read",
  list_code_definition_names: "read",
  read_command_output: "read",
  fetch_instructions: "read",
  access_mcp_resource: "fetch",
  search_files: "search",
  codebase_search: "search",
  lsp: "search",
  write_to_file: "edit",
  apply_diff: "edit",
  insert_content: "edit",
  edit: "edit",
  search_replace: "edit",
  edit_file: "edit",
  apply_patch: "edit",
  rename_symbol: "edit",
  execute_command: "execute",
  browser_action: "fetch",
  switch_mode: "switch_mode",
  update_todo_list: "think",
  ask_followup_question: "think",
  attempt_completion: "think",
}

export function toolKind(tool: string): ToolKind {
  return KINDS[tool] ?? "other"
}

/** "read_file src/a.ts": the tool and its key parameter. */
export function toolTitle(tool: string, params: unknown): string {
  const summary = tool === "attempt_completion" ? "" : paramsSummary(params)
  return summary ? `${tool} ${summary}` : tool
}

/** The files a call is about, absolute (ACP paths are absolute), with the line where the params say one. */
export function toolLocations(params: unknown, cwd: string): ToolCallLocation[] {
  if (!params || typeof params !== "object") return []
  const p = params as Record<string, unknown>
  const raw = p.path ?? p.file_path ?? p.filePath
  const path = typeof raw === "string" && raw !== "" ? raw : undefined
  if (!path) return []
  const line = [p.line, p.start_line, p.offset].find((v): v is number => typeof v === "number" && v > 0)
  return [{ path: isAbsolute(path) ? path : resolve(cwd, path), ...(line ? { line } : {}) }]
}
