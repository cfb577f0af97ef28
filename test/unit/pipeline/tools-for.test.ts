import { describe, expect, it } from "vitest"
import { ALL_TOOLS } from "../../../server/src/tools/registry"
import { z } from "zod"
import { newTurnState, type DynamicToolDefinition } from "../../../server/src/pipeline/types"
import { defineTool, textResult } from "../../../server/src/tools/tool"
import { availability, harness, text } from "./fixtures"

const mcpTool = (server: string, tool: string): DynamicToolDefinition => ({
  ...defineTool({
    name: `mcp--${server}--${tool}`,
    group: "mcp",
    params: z.object({ text: z.string() }).passthrough(),
    description: `${tool} from ${server}`,
    available: (ctx) => ctx.mcpServerNames.includes(server),
    prepare: async () => ({
      preview: { subject: { kind: "mcp", server, tool }, title: tool, detail: "" },
      run: async () => textResult("echoed"),
    }),
  }),
  inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
})

describe("toolsFor", () => {
  it("offers architect no execute_command and ask mode no edit tools", () => {
    const h = harness()
    expect(h.pipeline.toolsFor("architect").map((t) => t.name)).toEqual([
      "read_file",
      "list_files",
      "write_to_file",
      "apply_diff",
      "ask_followup_question",
      "attempt_completion",
      "switch_mode",
      "new_task",
      "update_todo_list",
    ])
    expect(h.pipeline.toolsFor("ask").map((t) => t.name)).not.toContain("write_to_file")
  })

  it("offers search_replace and apply_patch only when enabled, and use_mcp_tool never", () => {
    expect(
      harness()
        .pipeline.toolsFor("code")
        .map((t) => t.name),
    ).not.toContain("search_replace")
    const h = harness({ tweak: (s) => (s.tools.enabled = ["search_replace", "apply_patch", "use_mcp_tool"]) })
    const names = h.pipeline.toolsFor("code").map((t) => t.name)
    expect(names).toContain("search_replace")
    expect(names).toContain("apply_patch")
    expect(names).not.toContain("use_mcp_tool")
  })

  it("leaves out unavailable and disabled tools", () => {
    const h = harness({ tweak: (s) => (s.tools.disabled = ["read_file"]) })
    const names = h.pipeline.toolsFor("code").map((t) => t.name)
    expect(names).not.toContain("browser_action")
    expect(names).not.toContain("read_file")
    const withBrowser = harness({ availability: () => availability({ hasBrowser: true }) })
    expect(withBrowser.pipeline.toolsFor("code").map((t) => t.name)).toContain("browser_action")
  })

  it("offers dynamic MCP tools with their own schema, only for connected servers and modes with mcp", () => {
    const h = harness({
      dynamicTools: () => [mcpTool("everything", "echo"), mcpTool("gone", "x")],
      availability: () => availability({ mcpServerNames: ["everything"] }),
    })
    const spec = h.pipeline.toolsFor("code").find((t) => t.name.startsWith("mcp--"))
    expect(spec).toEqual({
      name: "mcp--everything--echo",
      description: "echo from everything",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
    })
    expect(h.pipeline.toolsFor("code").map((t) => t.name)).not.toContain("mcp--gone--x")
    expect(h.pipeline.toolsFor("orchestrator").map((t) => t.name)).not.toContain("mcp--everything--echo")
  })

  it("runs a dynamic MCP tool through the same checks and approvals", async () => {
    const h = harness({
      mode: "orchestrator",
      dynamicTools: () => [mcpTool("everything", "echo")],
      availability: () => availability({ mcpServerNames: ["everything"] }),
    })
    const refused = await h.pipeline.run(h.call("mcp--everything--echo", { text: "hi" }), newTurnState(), h.ctx)
    expect(text(refused.result)).toBe(
      'Tool "mcp--everything--echo" is not allowed in orchestrator mode. Modes that allow it: code, architect, ask, debug. Use switch_mode if the task needs it.',
    )
    const code = harness({
      dynamicTools: () => [mcpTool("everything", "echo")],
      availability: () => availability({ mcpServerNames: ["everything"] }),
    })
    const out = await code.pipeline.run(code.call("mcp--everything--echo", { text: "hi" }), newTurnState(), code.ctx)
    expect(out.status).toBe("done")
    expect(code.ctx.ask.approvals).toHaveLength(1)
  })

  it("generates the JSON Schema from zod as the model sees it (input side: defaults are optional)", () => {
    const h = harness()
    expect(h.pipeline.toolsFor("code").find((t) => t.name === "read_file")).toEqual({
      name: "read_file",
      description: "fake read_file",
      inputSchema: {
        type: "object",
        properties: {
          path: { type: "string", description: "Path relative to the workspace" },
          offset: { type: "integer", minimum: 1, default: 1 },
        },
        required: ["path"],
      },
    })
  })

  it("offers a custom mode's tools by its groups, and falls back to the default mode for an unknown slug", () => {
    const h = harness()
    expect(h.pipeline.toolsFor("no-such-mode")).toEqual(h.pipeline.toolsFor("code"))
  })

  it("uses modes from the registry it was given", () => {
    const modes = {
      get: (slug: string) =>
        slug === "solo"
          ? { slug, name: "Solo", roleDefinition: "r", groups: ["command" as const], source: "workspace" as const }
          : undefined,
      list: () => [],
    }
    const h = harness({ modes })
    expect(h.pipeline.toolsFor("solo").map((t) => t.name)).toEqual([
      "execute_command",
      "ask_followup_question",
      "attempt_completion",
      "switch_mode",
      "new_task",
      "update_todo_list",
    ])
  })
})

describe("toolsFor with the real tool registry (issue 13)", () => {
  it("offers browser_action where Roo's modes have the browser group, once a browser is found, and skill/run_slash_command in every mode", () => {
    const offered = (mode: string, hasBrowser: boolean) =>
      harness({ tools: ALL_TOOLS, availability: () => availability({ hasBrowser }) })
        .pipeline.toolsFor(mode)
        .map((t) => t.name)
    for (const mode of ["code", "architect", "ask", "debug"]) expect(offered(mode, true), mode).toContain("browser_action")
    expect(offered("orchestrator", true)).not.toContain("browser_action")
    expect(offered("code", false)).not.toContain("browser_action")
    for (const mode of ["code", "architect", "ask", "debug", "orchestrator"])
      expect(offered(mode, false), mode).toEqual(expect.arrayContaining(["skill", "run_slash_command"]))
  })
  it("offers lsp wherever the read group is and rename_symbol by default wherever the edit group is (issue 24)", () => {
    const h = harness({ tools: ALL_TOOLS })
    const offered = (mode: string) => h.pipeline.toolsFor(mode).map((t) => t.name)
    for (const mode of ["code", "architect", "debug"]) expect(offered(mode), mode).toEqual(expect.arrayContaining(["lsp", "rename_symbol"]))
    expect(offered("ask")).toContain("lsp")
    expect(offered("ask")).not.toContain("rename_symbol")
    expect(offered("orchestrator")).not.toContain("lsp")
    expect(offered("orchestrator")).not.toContain("rename_symbol")
    const disabled = harness({ tools: ALL_TOOLS, tweak: (s) => (s.tools.disabled = ["rename_symbol"]) })
    expect(disabled.pipeline.toolsFor("code").map((t) => t.name)).not.toContain("rename_symbol")
  })
})
