import { z } from "zod"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import { ModeRegistry, type ModeLookup } from "../../../server/src/modes"
import { createPipelineWith } from "../../../server/src/pipeline/create-pipeline"
import type { ToolCall, ToolPipelineOptions } from "../../../server/src/pipeline/types"
import type { AvailabilityContext } from "../../../server/src/tools/context"
import {
  defineTool,
  errorResult,
  textResult,
  type ToolDefinition,
  type ToolGroupOrAlways,
  type ToolResult,
} from "../../../server/src/tools/tool"
import { makeToolContext, type TestToolContext } from "../../support/tool-context"

/**
 * Small fake tools with the real names, so the pipeline is tested without the real tool files. Each
 * records its runs in `runs`.
 */
export const runs: { tool: string; params: unknown; editedText?: string }[] = []

function fake(
  name: string,
  group: ToolGroupOrAlways,
  params: z.ZodType,
  kind: "read" | "write" | "command" | "none" | "mcp" = "none",
): ToolDefinition {
  return defineTool({
    name,
    group,
    params,
    description: `fake ${name}`,
    available: () => true,
    async prepare(p: any) {
      const subject =
        kind === "read"
          ? { kind: "read" as const, paths: [p.path] }
          : kind === "write"
            ? { kind: "write" as const, paths: [p.path] }
            : kind === "command"
              ? { kind: "command" as const, command: p.command, cwd: ".", sandbox: { available: true } }
              : kind === "mcp"
                ? { kind: "mcp" as const, server: "s", tool: "t" }
                : { kind: "none" as const }
      return {
        preview: {
          subject,
          title: `${name}`,
          detail: JSON.stringify(p),
          diff: kind === "write" ? "--- a\n+++ b" : undefined,
          command: p.command,
        },
        async run(options?: { editedText?: string }) {
          runs.push({ tool: name, params: p, editedText: options?.editedText })
          return textResult(`${name} ok ${JSON.stringify(p)}`)
        },
      }
    },
  })
}

const path = z.object({ path: z.string().describe("Path relative to the workspace") })
export const fakeTools = {
  readFile: fake("read_file", "read", path.extend({ offset: z.number().int().min(1).default(1) }), "read"),
  listFiles: fake("list_files", "read", z.object({ path: z.string(), recursive: z.boolean().optional() }), "read"),
  writeToFile: fake("write_to_file", "edit", path.extend({ content: z.string() }), "write"),
  applyDiff: fake("apply_diff", "edit", path.extend({ diff: z.string() }), "write"),
  searchReplace: fake(
    "search_replace",
    "edit",
    z.object({ file_path: z.string(), old_string: z.string(), new_string: z.string() }),
    "write",
  ),
  applyPatch: defineTool({
    name: "apply_patch",
    group: "edit",
    params: z.object({ patch: z.string() }),
    description: "fake apply_patch",
    available: () => true,
    touchedPaths: ({ patch }) =>
      [...patch.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$|^\*\*\* Move to: (.+)$/gm)].map((m) => (m[1] ?? m[2])!),
    async prepare() {
      return { preview: { subject: { kind: "write", paths: [] }, title: "patch", detail: "" }, run: async () => textResult("patched") }
    },
  }),
  executeCommand: fake("execute_command", "command", z.object({ command: z.string(), cwd: z.string().optional() }), "command"),
  useMcpTool: fake("use_mcp_tool", "mcp", z.object({ server_name: z.string(), tool_name: z.string() }), "mcp"),
  askFollowup: fake("ask_followup_question", "always", z.object({ question: z.string() })),
  attemptCompletion: fake("attempt_completion", "always", z.object({ result: z.string() })),
  switchMode: fake("switch_mode", "always", z.object({ mode_slug: z.string(), reason: z.string() })),
  newTask: fake("new_task", "always", z.object({ mode: z.string(), message: z.string() })),
  updateTodoList: fake("update_todo_list", "always", z.object({ todos: z.string() })),
  browserAction: {
    ...fake("browser_action", "browser", z.object({ action: z.string() })),
    available: (ctx: AvailabilityContext) => ctx.hasBrowser,
  },
}
export const FAKE_TOOLS: readonly ToolDefinition[] = Object.values(fakeTools)

/** A tool whose run() result the test sets (for repetition and failed-edit tests). */
export function scriptedTool(name: string, group: ToolGroupOrAlways, results: () => ToolResult): ToolDefinition {
  return defineTool({
    name,
    group,
    params: z.object({ path: z.string().optional(), n: z.number().optional() }).passthrough(),
    description: name,
    available: () => true,
    async prepare() {
      return { preview: { subject: { kind: "none" }, title: name, detail: "" }, run: async () => results() }
    },
  })
}

export function availability(overrides: Partial<AvailabilityContext> = {}): AvailabilityContext {
  return {
    settings: defaultSettings(),
    workspaceFolders: ["/ws"],
    mcpServerNames: [],
    hasCodebaseIndex: false,
    hasBrowser: false,
    ...overrides,
  }
}

export interface Harness {
  pipeline: ReturnType<typeof createPipelineWith>
  ctx: TestToolContext
  settings: Settings
  call(name: string, args?: unknown, id?: string): ToolCall
}

/** A pipeline over the fake tools in `mode`, with settings overrides, and a test context. */
export function harness(
  options: { mode?: string; tweak?: (s: Settings) => void; modes?: ModeLookup; tools?: readonly ToolDefinition[] } & Partial<
    Omit<ToolPipelineOptions, "settings">
  > = {},
): Harness {
  const settings = defaultSettings()
  options.tweak?.(settings)
  const pipeline = createPipelineWith({
    availability: () => availability(),
    aliases: { write_file: "write_to_file", search_and_replace: "edit" },
    protectedDirs: ["/home/user/.config/agent-lsp"],
    ...options,
    settings: () => settings,
    modes: options.modes ?? ModeRegistry.builtinOnly(),
    tools: options.tools ?? FAKE_TOOLS,
  })
  const ctx = makeToolContext("/ws", { mode: options.mode ?? "code", settings })
  let n = 0
  return {
    pipeline,
    ctx,
    settings,
    call: (name, args = {}, id = `call_${++n}`) => ({ id, name, argumentsJson: typeof args === "string" ? args : JSON.stringify(args) }),
  }
}

export function text(result: ToolResult): string {
  return result.content.map((block) => (block.type === "text" ? block.text : "[image]")).join("\n")
}

export { errorResult, textResult }
