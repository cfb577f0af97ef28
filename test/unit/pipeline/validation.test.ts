import { describe, expect, it } from "vitest"
import { z } from "zod"
import { newTurnState } from "../../../server/src/pipeline/types"
import { notBuiltTool } from "../../../server/src/tools/not-built"
import { defineTool, textResult } from "../../../server/src/tools/tool"
import { FAKE_TOOLS, harness, runs, text } from "./fixtures"

/** Runs one call and returns the model's text and the outcome. */
async function once(h: ReturnType<typeof harness>, name: string, args: unknown) {
  const turn = newTurnState()
  const before = runs.length
  const outcome = await h.pipeline.run(h.call(name, args), turn, h.ctx)
  return { outcome, text: text(outcome.result), ran: runs.length > before, turn }
}

const CODE_TOOLS =
  "read_file, list_files, write_to_file, apply_diff, execute_command, ask_followup_question, attempt_completion, switch_mode, new_task, update_todo_list"

describe("validation steps, each an is_error result that does not end the turn", () => {
  it("refuses broken JSON arguments with the parser's message", async () => {
    const h = harness()
    const r = await once(h, "read_file", '{"path": "a.ts"')
    expect(r.text).toMatch(/^Invalid arguments for read_file: not valid JSON \(.+\)\. Send the arguments as one JSON object\.$/)
    expect(r.outcome).toMatchObject({ status: "error", result: { isError: true } })
    expect(r.ran).toBe(false)
    expect(r.turn.rejected).toBe(false)
  })

  it("refuses arguments that are JSON but not an object", async () => {
    const r = await once(harness(), "read_file", "[1,2]")
    expect(r.text).toBe(
      "Invalid arguments for read_file: the arguments must be one JSON object, not a list or a single value. Send the arguments as one JSON object.",
    )
  })

  it("treats empty arguments as an empty object", async () => {
    const r = await once(harness(), "read_file", "")
    expect(r.text).toMatch(/^Invalid arguments for read_file: path: missing/)
  })

  it("names the mode's tools and a near miss for an unknown tool", async () => {
    const r = await once(harness(), "read_files", { path: "a" })
    expect(r.text).toBe(`Unknown tool "read_files". Tools available in code mode: ${CODE_TOOLS}. Did you mean "read_file"?`)
    expect(r.outcome.status).toBe("error")
  })

  it("offers no guess when nothing is close", async () => {
    const r = await once(harness({ mode: "orchestrator" }), "teleport", {})
    expect(r.text).toBe(
      'Unknown tool "teleport". Tools available in orchestrator mode: ask_followup_question, attempt_completion, switch_mode, new_task, update_todo_list.',
    )
  })

  it("resolves the aliases write_file and search_and_replace", async () => {
    const edit = defineTool({
      name: "edit",
      group: "edit",
      params: z.object({ path: z.string() }),
      description: "",
      available: () => true,
      prepare: async () => ({ result: textResult("edited") }),
    })
    const h = harness({ tools: [...FAKE_TOOLS, edit], tweak: (s) => (s.autoApprove.write = true) })
    expect((await once(h, "write_file", { path: "a.ts", content: "x" })).text).toBe('write_to_file ok {"path":"a.ts","content":"x"}')
    expect((await once(h, "search_and_replace", { path: "a.ts" })).text).toBe("edited")
  })

  it("says a tool that is not built is not available here", async () => {
    const h = harness({ tools: [...FAKE_TOOLS, notBuiltTool("codebase_search", "read")] })
    const r = await once(h, "codebase_search", { query: "x" })
    expect(r.text).toBe(
      `Tool "codebase_search" is not available here: the codebase index is off (agent.codebaseIndex.enabled is false, or no workspace folder is open). Tools available in code mode: ${CODE_TOOLS}.`,
    )
  })

  it("says an MCP tool is not available when no MCP server is connected", async () => {
    const mcp = { ...FAKE_TOOLS.find((t) => t.name === "use_mcp_tool")!, available: () => false }
    const h = harness({ tools: [...FAKE_TOOLS.filter((t) => t.name !== "use_mcp_tool"), mcp] })
    const r = await once(h, "use_mcp_tool", { server_name: "s", tool_name: "t" })
    expect(r.text).toMatch(/^Tool "use_mcp_tool" is not available here: no MCP server is connected\. Tools available in code mode: /)
  })

  it("refuses a disabled tool, even an always-available one", async () => {
    const h = harness({ tweak: (s) => (s.tools.disabled = ["apply_diff", "attempt_completion"]) })
    expect((await once(h, "apply_diff", { path: "a", diff: "d" })).text).toBe('Tool "apply_diff" is disabled by the user\'s settings.')
    const r = await once(h, "attempt_completion", { result: "done" })
    expect(r.text).toBe('Tool "attempt_completion" is disabled by the user\'s settings.')
    expect(r.ran).toBe(false)
  })

  it("refuses a tool outside the mode's groups and lists the modes that allow it", async () => {
    const r = await once(harness({ mode: "architect" }), "execute_command", { command: "ls" })
    expect(r.text).toBe(
      'Tool "execute_command" is not allowed in architect mode. Modes that allow it: code, debug. Use switch_mode if the task needs it.',
    )
    expect(r.ran).toBe(false)
  })

  it("names each bad param and the expected shape", async () => {
    const r = await once(harness(), "read_file", { offset: "ten", extra: true })
    expect(r.text).toBe(
      "Invalid arguments for read_file: path: missing (required string); offset: expected number, received string. Expected: { path: string, offset?: integer }",
    )
  })

  it("reports unknown params of a strict schema", async () => {
    const strict = defineTool({
      name: "list_files",
      group: "read",
      params: z.object({ path: z.string() }).strict(),
      description: "",
      available: () => true,
      prepare: async () => ({ result: textResult("x") }),
    })
    const h = harness({ tools: [strict] })
    expect((await once(h, "list_files", { path: ".", recursive: true })).text).toBe(
      'Invalid arguments for list_files: unknown parameter "recursive". Expected: { path: string }',
    )
  })

  it("refuses an edit outside the mode's fileRegex with Roo's message", async () => {
    const r = await once(harness({ mode: "architect" }), "write_to_file", { path: "src/index.ts", content: "x" })
    expect(r.text).toBe(
      "Tool 'write_to_file' in mode 'Architect' can only edit files matching pattern: \\.md$ (Markdown files only). Got: src/index.ts",
    )
    expect(r.ran).toBe(false)
  })

  it("checks every path an apply_patch touches, Move-to targets included", async () => {
    const h = harness({ mode: "architect", tweak: (s) => (s.tools.enabled = ["apply_patch"]) })
    const patch = "*** Begin Patch\n*** Update File: docs/a.md\n*** Move to: src/a.ts\n*** End Patch"
    const r = await once(h, "apply_patch", { patch })
    expect(r.text).toBe(
      "Tool 'apply_patch' in mode 'Architect' can only edit files matching pattern: \\.md$ (Markdown files only). Got: src/a.ts",
    )
  })

  it("refuses a prepared edit that writes a file outside the mode's fileRegex that no param named, without asking or running", async () => {
    // A rename through a language server: the param names a Markdown file, the edit it prepares changes a .ts file too.
    let ran = false
    const rename = defineTool({
      name: "rename_symbol",
      group: "edit",
      params: z.object({ filePath: z.string(), newName: z.string() }),
      description: "fake rename_symbol",
      available: () => true,
      touchedPaths: ({ filePath }) => [filePath],
      async prepare() {
        const subject = { kind: "write" as const, paths: ["docs/guide.md", "src/index.ts"] }
        return { preview: { subject, title: "rename", detail: "" }, run: async () => ((ran = true), textResult("renamed")) }
      },
    })
    const h = harness({ mode: "architect", tools: [...FAKE_TOOLS, rename] })
    const r = await once(h, "rename_symbol", { filePath: "docs/guide.md", newName: "b" })
    expect(r.text).toBe(
      "Tool 'rename_symbol' in mode 'Architect' can only edit files matching pattern: \\.md$ (Markdown files only). Got: src/index.ts",
    )
    expect(r.outcome.status).toBe("error")
    expect(ran).toBe(false)
    expect(h.ctx.ask.approvals).toEqual([])
  })

  it("checks file_path too, and absolute paths relative to the workspace", async () => {
    const h = harness({ mode: "architect" })
    const r = await once(h, "search_replace", { file_path: "/ws/src/a.ts", old_string: "a", new_string: "b" })
    expect(r.text).toMatch(/Got: src\/a\.ts$/)
  })

  it("goes on with the next call of the turn after a validation failure", async () => {
    const h = harness()
    const turn = newTurnState()
    await h.pipeline.run(h.call("read_file", "{oops"), turn, h.ctx)
    const second = await h.pipeline.run(h.call("read_file", { path: "b.ts" }), turn, h.ctx)
    expect(second.status).toBe("done")
  })

  it("refuses an edit whose touched paths cannot be worked out in a restricted mode", async () => {
    const broken = defineTool({
      name: "apply_patch",
      group: "edit",
      params: z.object({ patch: z.string() }),
      description: "",
      available: () => true,
      touchedPaths: () => {
        throw new Error("line 2: expected '*** Update File:'")
      },
      prepare: async () => ({ result: textResult("patched") }),
    })
    const h = harness({ mode: "architect", tools: [...FAKE_TOOLS, broken], tweak: (s) => (s.tools.enabled = ["apply_patch"]) })
    const r = await once(h, "apply_patch", { patch: "garbage" })
    expect(r.text).toBe("Invalid arguments for apply_patch: could not tell which files it touches (line 2: expected '*** Update File:').")
  })
})
