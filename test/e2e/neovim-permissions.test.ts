import { afterEach, beforeAll, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { hasNvim, runNvim } from "./nvim-runner"
import { expectPlanThenAcceptEdits, SWITCH_REPLIES } from "./permission-switch"
import { expectBuiltServer } from "./preconditions"

// :AgentPermissions in a real headless Neovim (the plugin from this checkout, which declares its own
// capabilities; the built server; the fake model): the picker and the argument form reach the server
// (agent/setPermissionMode: the next task runs under that mode) and the mode shows beside the Roo mode in
// the statusline and the transcript window's statusline.

interface Observed {
  selects: string[]
  notes: string[]
  first: { statusline: string; transcriptStatusline: string; status?: string }
  second: { statusline: string; transcriptStatusline: string; status?: string }
}

let ws: TempWorkspace
let fake: FakeAnthropic

beforeAll(() => {
  expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
  expectBuiltServer()
})
afterEach(async () => {
  await fake?.close()
  await ws?.cleanup()
})

const SCRIPT = `
  local observed = { selects = {}, notes = {} }
  vim.notify = function(msg) table.insert(observed.notes, tostring(msg)) end
  -- The permission picker answers "plan"; any other picker (an approval) is recorded and refused.
  vim.ui.select = function(items, opts, on_choice)
    table.insert(observed.selects, opts.prompt or "")
    vim.defer_fn(function() on_choice(opts.prompt == "Agent permission mode" and "plan" or nil) end, 20)
  end
  require("agent_lsp").setup({
    cmd = { "node", ${JSON.stringify(SERVER_ENTRY)}, "--stdio" },
    settings = { checkpoints = { enabled = false } },
  })
  vim.cmd("edit a.txt")
  local buf = vim.api.nvim_get_current_buf()
  local state = require("agent_lsp.state")
  local transcript = require("agent_lsp.transcript")
  assert(vim.wait(15000, function() return require("agent_lsp.client").get(buf) ~= nil end, 20), "the agent client never initialized")
  local function noted(pattern)
    return vim.wait(10000, function()
      for _, n in ipairs(observed.notes) do if n:find(pattern) then return true end end
      return false
    end, 20)
  end
  local function run_task(text)
    vim.cmd("AgentTask " .. text)
    vim.wait(45000, function()
      local t = state.active and state.tasks[state.active]
      return t ~= nil and t.title == text and t.status == "completed"
    end, 20)
    -- The task's modes come from agent/getTask right after it started.
    vim.wait(3000, function() return state.tasks[state.active].permission_mode ~= nil end, 20)
    local t = state.tasks[state.active]
    return {
      statusline = require("agent_lsp").statusline(),
      transcriptStatusline = transcript.status_line(state.active),
      status = t and t.status,
    }
  end
  vim.cmd("AgentPermissions")
  assert(noted("permission mode plan for new tasks"), "no answer to :AgentPermissions")
  observed.first = run_task("write b.txt")
  vim.cmd("AgentPermissions acceptEdits")
  assert(noted("permission mode acceptEdits for new tasks"), "no answer to :AgentPermissions acceptEdits")
  observed.second = run_task("write c.txt")
  observe(observed)
  for _, client in ipairs(vim.lsp.get_active_clients()) do client.stop() end
  vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
`

describe(":AgentPermissions in Neovim", () => {
  it("sets the permission mode from the picker and from an argument; the next task runs under it and the statuslines show it beside the mode", async () => {
    ws = await tempWorkspace({ "a.txt": "hello\n" })
    fake = await startFakeAnthropic(SWITCH_REPLIES)
    const run = await runNvim<Observed>(SCRIPT, {
      cwd: ws.root,
      env: { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" },
      timeoutMs: 90_000,
    })
    const seen = run.observed
    expect(seen, `nvim wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect((seen as any).scriptError, context).toBeUndefined()
    // Only the permission picker was shown: plan refused the edit without asking, acceptEdits ran it unasked.
    expect(seen!.selects, context).toEqual(["Agent permission mode"])
    expect(seen!.first, context).toEqual({
      statusline: "agent: completed (code, plan)",
      transcriptStatusline: "agent: completed (code, plan)",
      status: "completed",
    })
    expect(seen!.second, context).toEqual({
      statusline: "agent: completed (code, acceptEdits)",
      transcriptStatusline: "agent: completed (code, acceptEdits)",
      status: "completed",
    })
    expectPlanThenAcceptEdits(ws, fake)
    expect(run.code, run.stderr).toBe(0)
  }, 120_000)
})
