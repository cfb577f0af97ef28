import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { hasNvim, runNvim } from "./nvim-runner"
import { expectBuiltServer } from "./preconditions"

// The review in a real headless Neovim (0.7.2 here): :AgentReview fills the quickfix list and the signs,
// :AgentReviewKeep / :AgentReviewReject decide the hunk under the cursor, through the built server.

const ORIGINAL = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") + "\n"
const EDITED = ORIGINAL.replace("line 2\n", "line 2 by agent\n").replace("line 10\n", "line 10 by agent\n")

interface Observed {
  status?: string
  qf: { lnum: number; text: string }[]
  signs: number
  afterQf: { lnum: number; text: string }[]
  buffer: string[]
  notes: string[]
}

const SCENARIO = `
  local observed = { notes = {} }
  vim.notify = function(msg) table.insert(observed.notes, tostring(msg)) end
  vim.ui.select = function(items, opts, on_choice)
    vim.defer_fn(function() on_choice(items[1]) end, 10)
  end
  require("agent_lsp").setup({ cmd = { "node", ${JSON.stringify(SERVER_ENTRY)}, "--stdio" }, settings = { autoApprove = { write = true } } })
  vim.cmd("edit a.txt")
  local buf = vim.api.nvim_get_current_buf()
  local state = require("agent_lsp.state")
  local review = require("agent_lsp.review")
  local function qf()
    local out = {}
    for _, item in ipairs(vim.fn.getqflist()) do table.insert(out, { lnum = item.lnum, text = item.text }) end
    return out
  end
  local ok = pcall(function()
    vim.wait(15000, function() return require("agent_lsp.client").get(buf) ~= nil end, 20)
    vim.cmd("AgentTask edit lines 2 and 10")
    vim.wait(45000, function()
      local t = state.active and state.tasks[state.active]
      return t ~= nil and (t.status == "completed" or t.status == "failed")
    end, 20)
    observed.status = state.tasks[state.active].status
    vim.wait(500)
    vim.cmd("AgentReview")
    vim.wait(5000, function() return #vim.fn.getqflist() == 2 end, 20)
    observed.qf = qf()
    observed.signs = #vim.fn.sign_getplaced(buf, { group = "agent_lsp_review" })[1].signs
    -- Keep the first hunk, reject the second, from the hunk under the cursor.
    vim.cmd("cclose")
    vim.api.nvim_set_current_buf(buf)
    vim.api.nvim_win_set_cursor(0, { 2, 0 })
    vim.cmd("AgentReviewKeep")
    vim.wait(5000, function() return #vim.fn.getqflist() == 1 end, 20)
    vim.api.nvim_win_set_cursor(0, { 10, 0 })
    vim.cmd("AgentReviewReject")
    vim.wait(5000, function() return #vim.fn.getqflist() == 0 end, 20)
    vim.wait(500)
    observed.afterQf = qf()
    observed.buffer = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  end)
  if not ok then table.insert(observed.notes, "scenario failed") end
  observe(observed)
  for _, client in ipairs(vim.lsp.get_active_clients()) do client.stop() end
  vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
`

let ws: TempWorkspace
let fake: FakeAnthropic

beforeAll(() => {
  expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
  expectBuiltServer()
})
afterEach(async () => {
  await fake?.close()
  await ws.cleanup()
})

describe("Neovim review (headless nvim, built server, fake model)", () => {
  it("lists the hunks in the quickfix list with signs, keeps one and rejects the other from the cursor", async () => {
    ws = await tempWorkspace({ "a.txt": ORIGINAL })
    fake = await startFakeAnthropic([
      { toolCalls: [{ name: "write_to_file", input: { path: "a.txt", content: EDITED } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
    ])
    const run = await runNvim<Observed>(SCENARIO, {
      cwd: ws.root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" },
      timeoutMs: 90_000,
    })
    const seen = run.observed
    expect(seen, `nvim wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect(seen!.status, context).toBe("completed")
    expect(
      seen!.qf.map((i) => i.lnum),
      context,
    ).toEqual([2, 10])
    expect(seen!.qf[0]!.text).toContain("line 2 by agent")
    expect(seen!.signs).toBe(2)
    expect(seen!.afterQf, context).toEqual([])
    expect(seen!.buffer.slice(0, 10)).toEqual(["line 1", "line 2 by agent", ...Array.from({ length: 8 }, (_, i) => `line ${i + 3}`)])
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe(ORIGINAL.replace("line 2\n", "line 2 by agent\n"))
  }, 120_000)
})
