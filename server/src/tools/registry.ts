import type { ToolDefinition } from "./tool"
import { readFile } from "./read-file"
import { listFiles } from "./list-files"
import { searchFiles } from "./search-files"
import { listCodeDefinitionNames } from "./list-code-definition-names"
import { codebaseSearch } from "./codebase-search"
import { lsp } from "./lsp"
import { renameSymbol } from "./rename-symbol"
import { writeToFile } from "./write-to-file"
import { applyDiff } from "./apply-diff"
import { edit } from "./edit"
import { searchReplace } from "./search-replace"
import { editFile } from "./edit-file"
import { insertContent } from "./insert-content"
import { applyPatch } from "./apply-patch"
import { executeCommand } from "./execute-command"
import { readCommandOutput } from "./read-command-output"
import { browserAction } from "./browser-action"
import { useMcpTool } from "./use-mcp-tool"
import { accessMcpResource } from "./access-mcp-resource"
import { askFollowupQuestion } from "./ask-followup-question"
import { attemptCompletion } from "./attempt-completion"
import { exitPlanMode } from "./exit-plan-mode"
import { switchMode } from "./switch-mode"
import { newTask } from "./new-task"
import { updateTodoList } from "./update-todo-list"
import { fetchInstructions } from "./fetch-instructions"
import { skill } from "./skill"
import { runSlashCommand } from "./run-slash-command"

/** Every tool of the product, offered or not; the pipeline filters by availability, mode and settings. */
export const ALL_TOOLS: readonly ToolDefinition[] = [
  readFile,
  listFiles,
  searchFiles,
  listCodeDefinitionNames,
  codebaseSearch,
  lsp,
  writeToFile,
  applyDiff,
  edit,
  searchReplace,
  editFile,
  insertContent,
  applyPatch,
  renameSymbol,
  executeCommand,
  readCommandOutput,
  browserAction,
  useMcpTool,
  accessMcpResource,
  askFollowupQuestion,
  attemptCompletion,
  switchMode,
  newTask,
  updateTodoList,
  fetchInstructions,
  skill,
  runSlashCommand,
  // Last: offered only in plan mode, so the tools before it keep their order (and the prompt cache) either way.
  exitPlanMode,
]

/** Names the model may use that resolve to another tool. */
export const TOOL_ALIASES: Readonly<Record<string, string>> = {
  write_file: "write_to_file",
  search_and_replace: "edit",
}

const byName = new Map(ALL_TOOLS.map((tool) => [tool.name, tool]))

/** Looks a tool up by name or alias; undefined when unknown. Dynamic MCP tools are resolved by the pipeline. */
export function findTool(name: string): ToolDefinition | undefined {
  return byName.get((Object.hasOwn(TOOL_ALIASES, name) ? TOOL_ALIASES[name] : undefined) ?? name)
}
