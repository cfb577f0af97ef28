import { describe, expect, it } from "vitest"
import { toolSpec } from "../../../server/src/pipeline/json-schema"
import { ALL_TOOLS, findTool, TOOL_ALIASES } from "../../../server/src/tools/registry"
import { EVERYTHING } from "../../../scripts/docs/render-tools"

/**
 * Pins every available tool exactly as the model is offered it (name, description, JSON Schema
 * generated from zod). A change to a tool's params or description shows up here as a snapshot diff.
 * Availability is computed with everything configured (MCP servers, a codebase index, a browser), so
 * only tools that are not built at all are left out.
 */
const everything = EVERYTHING
const available = ALL_TOOLS.filter((tool) => tool.available(everything))

describe("tool schemas as the model sees them", () => {
  it.each(available.map((tool) => [tool.name, tool] as const))("%s", (_name, tool) => {
    expect(toolSpec(tool)).toMatchSnapshot()
  })

  it("gives every available tool an object schema and a description", () => {
    for (const tool of available) {
      const spec = toolSpec(tool)
      expect([tool.name, spec.inputSchema.type]).toEqual([tool.name, "object"])
      expect(spec.description.trim().length, tool.name).toBeGreaterThan(20)
    }
  })

  it("registers every tool of issues 3 and 24 exactly once, and the aliases", () => {
    expect(ALL_TOOLS.map((tool) => tool.name).sort()).toEqual(
      [
        "read_file",
        "list_files",
        "search_files",
        "list_code_definition_names",
        "codebase_search",
        "lsp",
        "write_to_file",
        "apply_diff",
        "edit",
        "search_replace",
        "edit_file",
        "insert_content",
        "apply_patch",
        "rename_symbol",
        "execute_command",
        "read_command_output",
        "browser_action",
        "use_mcp_tool",
        "access_mcp_resource",
        "ask_followup_question",
        "attempt_completion",
        "switch_mode",
        "new_task",
        "update_todo_list",
        "fetch_instructions",
        "skill",
        "run_slash_command",
        // Issue 23: offered only in plan mode.
        "exit_plan_mode",
      ].sort(),
    )
    expect(TOOL_ALIASES).toEqual({ write_file: "write_to_file", search_and_replace: "edit" })
    expect(findTool("write_file")?.name).toBe("write_to_file")
    expect(findTool("search_and_replace")?.name).toBe("edit")
    expect(findTool("nope")).toBeUndefined()
  })
})
