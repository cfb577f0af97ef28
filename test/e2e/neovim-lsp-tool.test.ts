import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { placesIn } from "../support/lsp-questions"
import { SERVER_ENTRY } from "../support/server-harness"
import { toolResultText } from "../support/session"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { PROJECT, positionOf, TSLS, TypescriptOracle, writeProject } from "../support/typescript-oracle"
import { hasNvim, runNvim } from "./nvim-runner"
import { expectBuiltServer } from "./preconditions"

// Neovim 0.7.2 answering agent/languageFeature for real: its own typescript-language-server, attached
// to buffers the plugin loads without showing them, answers the lsp tool; rename_symbol lands as one
// workspace/applyEdit over the three buffers, and `u` in each restores it.

interface Observed {
  status?: string
  selects: string[]
  files: Record<string, { after: string[]; modified: boolean; shown: boolean; undone: string[] }>
  projectLoaded: boolean
}

const FILES = ["src/shape.ts", "src/circle.ts", "src/main.ts"]

function script(): string {
  return `
    vim.cmd("filetype on")
    local observed = { selects = {}, files = {} }
    vim.notify = function() end
    vim.ui.select = function(items, opts, on_choice)
      table.insert(observed.selects, opts.prompt or "")
      vim.defer_fn(function()
        for _, item in ipairs(items) do
          local label = opts.format_item and opts.format_item(item) or tostring(item)
          if label == "Allow once" then return on_choice(item) end
        end
        on_choice(nil)
      end, 30)
    end
    -- The user's own TypeScript server, attached the way lspconfig does it: on FileType.
    local ts_id
    vim.api.nvim_create_autocmd("FileType", { pattern = "typescript", callback = function(args)
      ts_id = ts_id or vim.lsp.start_client({ name = "tsls", cmd = { "node", ${JSON.stringify(TSLS)}, "--stdio" }, root_dir = vim.loop.cwd() })
      vim.lsp.buf_attach_client(args.buf, ts_id)
    end })
    require("agent_lsp").setup({
      cmd = { "node", ${JSON.stringify(SERVER_ENTRY)}, "--stdio" },
      settings = { checkpoints = { enabled = false } },
    })
    vim.cmd("edit src/main.ts")
    local main = vim.api.nvim_get_current_buf()
    -- Like an editor that has had the project open a while: wait until its server loaded the project.
    observed.projectLoaded = vim.wait(120000, function()
      local res = vim.lsp.buf_request_sync(main, "textDocument/definition",
        { textDocument = { uri = vim.uri_from_bufnr(main) }, position = { line = 4, character = 10 } }, 5000)
      return vim.inspect(res or {}):find("shape.ts") ~= nil
    end, 500)
    local state = require("agent_lsp.state")
    vim.wait(15000, function() return require("agent_lsp.client").get(main) ~= nil end, 20)
    vim.cmd("AgentTask find describeShape and rename it")
    vim.wait(150000, function()
      local t = state.active and state.tasks[state.active]
      return t ~= nil and (t.status == "completed" or t.status == "failed" or t.status == "cancelled")
    end, 50)
    observed.status = state.active and state.tasks[state.active] and state.tasks[state.active].status
    local shown = {}
    for _, win in ipairs(vim.api.nvim_list_wins()) do shown[vim.api.nvim_win_get_buf(win)] = true end
    for _, file in ipairs({ ${FILES.map((f) => JSON.stringify(f)).join(", ")} }) do
      local b = vim.fn.bufnr(file)
      local entry = { after = {}, undone = {}, modified = false, shown = shown[b] == true }
      if b ~= -1 and vim.api.nvim_buf_is_loaded(b) then
        entry.after = vim.api.nvim_buf_get_lines(b, 0, -1, false)
        entry.modified = vim.api.nvim_buf_get_option(b, "modified")
        vim.api.nvim_buf_call(b, function() vim.cmd("silent undo") end)
        entry.undone = vim.api.nvim_buf_get_lines(b, 0, -1, false)
      end
      observed.files[file] = entry
    end
    observe(observed)
    for _, client in ipairs(vim.lsp.get_active_clients()) do client.stop() end
    vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  `
}

let ws: TempWorkspace
let fake: FakeAnthropic
let oracle: TypescriptOracle | undefined

beforeAll(() => {
  expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
  expectBuiltServer()
})
afterEach(async () => {
  await fake?.close()
  await oracle?.stop()
  await ws.cleanup()
})

describe("Neovim answers the lsp tool and renames from its own language servers", () => {
  it("answers references and symbols of files it loads without showing, and renames three files in one approved edit that u undoes", async () => {
    ws = await tempWorkspace()
    await writeProject(ws.root)
    const at = positionOf(ws.root, "src/shape.ts", "describeShape")
    fake = await startFakeAnthropic([
      {
        toolCalls: [
          { id: "toolu_refs", name: "lsp", input: { operation: "findReferences", filePath: "src/shape.ts", ...at } },
          { id: "toolu_symbols", name: "lsp", input: { operation: "documentSymbol", filePath: "src/circle.ts" } },
        ],
      },
      { toolCalls: [{ id: "toolu_rename", name: "rename_symbol", input: { filePath: "src/shape.ts", ...at, newName: "renderShape" } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Renamed." } }] },
    ])
    const run = await runNvim<Observed>(script(), {
      cwd: ws.root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" },
      timeoutMs: 300_000,
    })
    const seen = run.observed
    expect(seen, `nvim wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect(seen!.projectLoaded, context).toBe(true)
    expect(seen!.status, context).toBe("completed")

    for (const file of FILES)
      expect(await readFile(ws.path(file), "utf8"), `${file} on disk`).toBe(`${seen!.files[file]!.after.join("\n")}\n`)

    // The lsp answers are Neovim's typescript-language-server's, equal to that server asked directly.
    const refs = toolResultText(fake.requests[1]!.body.messages.at(-1).content.find((b: any) => b.tool_use_id === "toolu_refs"))
    // The oracle reads the project as it was: put the files back first (the rename changed them).
    await writeProject(ws.root)
    oracle = await TypescriptOracle.start(ws.root)
    await oracle.warm()
    const expected = await oracle.request("textDocument/references", {
      textDocument: { uri: oracle.uri("src/shape.ts") },
      position: { line: at.line - 1, character: at.character - 1 },
      context: { includeDeclaration: true },
    })
    expect(placesIn(refs), refs).toEqual([...new Set(oracle.placesOf(expected))])
    const symbols = toolResultText(fake.requests[1]!.body.messages.at(-1).content.find((b: any) => b.tool_use_id === "toolu_symbols"))
    expect(symbols).toMatch(/^src\/circle\.ts: \d+ symbols/)
    expect(symbols).toMatch(/class Circle {2}3-8/)

    // One approval for the rename, every file renamed in its buffer and saved; u restores each buffer.
    expect(seen!.selects, context).toHaveLength(1)
    for (const file of FILES) {
      const entry = seen!.files[file]!
      expect(entry.shown, `${file} was loaded without being shown`).toBe(file === "src/main.ts")
      expect(entry.after.join("\n"), context).toContain("renderShape")
      expect(entry.after.join("\n")).not.toContain("describeShape")
      expect(entry.modified, `${file} was saved`).toBe(false)
      expect(`${entry.undone.join("\n")}\n`, `u in ${file} restores it`).toBe(PROJECT[file])
    }
    expect(run.code, run.stderr).toBe(0)
  }, 320_000)
})
