import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { SERVER_ENTRY } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"
import { hasNvim, runNvim } from "./nvim-runner"
import { expectBuiltServer } from "./preconditions"

// End to end in a real headless Neovim (Debian's 0.7.2 in CI): the plugin from this checkout, the built
// server, the fake Messages API. Neovim writes what it saw to a JSON file; the test checks that, the
// disk, and what the model was sent.

interface Observed {
  taskId?: string
  status?: string
  buffer: string[]
  modified: boolean
  transcript: string[]
  selects: string[]
  notes: string[]
  modeCompletions: string[]
  statusline: string
  lspLog?: string
  /** Per approval asked: the lines of the floating windows open while vim.ui.select waited. */
  floats: string[][]
  transcriptStatusline: string
  after?: { defaultMode?: string; finishedMode?: string; statusline?: string }
}

const ORIGINAL = "hello\nworld\n"

/**
 * The Lua scenario: open a.txt, run `command` (default `:AgentTask change hello to hello there`), answer the
 * approval with `choice` from a later tick; `after` is Lua run once the task ended (it may fill observed.after).
 */
function scenario(choice: string, feedback: string | null, command = "AgentTask change hello to hello there", after = ""): string {
  return `
    local observed = { selects = {}, notes = {}, floats = {} }
    local orig_notify = vim.notify
    vim.notify = function(msg, level) table.insert(observed.notes, tostring(msg)) end
    -- Like a real picker (telescope, fzf): the choice comes back from a later event-loop tick.
    vim.ui.select = function(items, opts, on_choice)
      table.insert(observed.selects, opts.prompt or "")
      local floats = {}
      for _, win in ipairs(vim.api.nvim_list_wins()) do
        if vim.api.nvim_win_get_config(win).relative ~= "" then
          vim.list_extend(floats, vim.api.nvim_buf_get_lines(vim.api.nvim_win_get_buf(win), 0, -1, false))
        end
      end
      table.insert(observed.floats, floats)
      vim.defer_fn(function()
        for _, item in ipairs(items) do
          local label = opts.format_item and opts.format_item(item) or tostring(item)
          if label == ${JSON.stringify(choice)} then return on_choice(item) end
        end
        on_choice(nil)
      end, 30)
    end
    vim.ui.input = function(opts, on_confirm)
      vim.defer_fn(function() on_confirm(${feedback === null ? "nil" : JSON.stringify(feedback)}) end, 10)
    end
    require("agent_lsp").setup({
      cmd = { "node", ${JSON.stringify(SERVER_ENTRY)}, "--stdio" },
      settings = { checkpoints = { enabled = false } },
    })
    vim.cmd("edit a.txt")
    local buf = vim.api.nvim_get_current_buf()
    local state = require("agent_lsp.state")
    local function finish()
      observed.statusline = require("agent_lsp").statusline()
      observed.taskId = state.active
      observed.status = state.active and state.tasks[state.active] and state.tasks[state.active].status or nil
      observed.buffer = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
      observed.modified = vim.api.nvim_buf_get_option(buf, "modified")
      local tbuf = state.active and require("agent_lsp.transcript").buffer(state.active)
      observed.transcript = tbuf and vim.api.nvim_buf_get_lines(tbuf, 0, -1, false) or {}
      observed.transcriptStatusline = state.active and require("agent_lsp.transcript").status_line(state.active) or ""
      local log = io.open(vim.fn.stdpath("cache") .. "/lsp.log", "r")
      if log then observed.lspLog = log:read("*a"):sub(-3000) log:close() end
      observe(observed)
    end
    local ready = vim.wait(15000, function() return require("agent_lsp.client").get(buf) ~= nil end, 20)
    if not ready then finish() error("the agent client never initialized") end
    -- :AgentMode completes the server's mode names (agent/listModes).
    observed.modeCompletions = vim.fn.getcompletion("AgentMode a", "cmdline")
    vim.cmd(${JSON.stringify(command)})
    vim.wait(45000, function()
      local t = state.active and state.tasks[state.active]
      return t ~= nil and (t.status == "completed" or t.status == "failed" or t.status == "cancelled")
    end, 20)
    ${after}
    finish()
    vim.notify = orig_notify
    for _, client in ipairs(vim.lsp.get_active_clients()) do client.stop() end
    vim.wait(3000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
  `
}

const diff = ["<<<<<<< SEARCH", ":start_line:1", "-------", "hello", "=======", "hello there", ">>>>>>> REPLACE"].join("\n")

let ws: TempWorkspace
let fake: FakeAnthropic

beforeAll(() => {
  expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
  expectBuiltServer()
})
beforeEach(async () => {
  ws = await tempWorkspace({ "a.txt": ORIGINAL })
})
afterEach(async () => {
  await fake?.close()
  await ws.cleanup()
})

function env(): NodeJS.ProcessEnv {
  return { ANTHROPIC_BASE_URL: fake.url, ANTHROPIC_API_KEY: "sk-ant-e2e-dummy-key-0123456789" }
}

describe("Neovim plugin end to end (headless nvim, built server, fake model)", () => {
  it("applies an approved apply_diff to the buffer, saves it through agent/saveDocuments, and shows the task in the transcript", async () => {
    fake = await startFakeAnthropic([
      { text: "Let me read the file first.", toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
      { toolCalls: [{ name: "apply_diff", input: { path: "a.txt", diff } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Changed hello to hello there." } }] },
    ])
    const run = await runNvim<Observed>(scenario("Allow once", null), { cwd: ws.root, env: env(), timeoutMs: 60_000 })
    const seen = run.observed
    expect(seen, `nvim wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect(seen!.status, context).toBe("completed")
    expect(seen!.buffer).toEqual(["hello there", "world"])
    expect(seen!.modified, "the buffer was saved").toBe(false)
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("hello there\nworld\n")
    expect(seen!.selects.length, "one approval was asked").toBe(1)
    expect(seen!.modeCompletions).toEqual(expect.arrayContaining(["architect", "ask"]))
    expect(seen!.modeCompletions.every((m) => m.startsWith("a"))).toBe(true)
    expect(seen!.statusline).toMatch(/^agent: completed/)
    const transcript = seen!.transcript.join("\n")
    expect(transcript).toContain("Let me read the file first.")
    expect(transcript).toMatch(/\*\*read_file\*\* `a\.txt`/)
    expect(transcript).toMatch(/\*\*apply_diff\*\* `a\.txt`/)
    expect(transcript).toContain("## Completed")
    expect(transcript).toContain("Changed hello to hello there.")
    expect(run.code, run.stderr).toBe(0)
    expect(fake.requests).toHaveLength(3)
  }, 90_000)

  it("leaves buffer and disk unchanged when the edit is rejected, and the model is told with the user's feedback", async () => {
    fake = await startFakeAnthropic([
      { toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
      { toolCalls: [{ name: "apply_diff", input: { path: "a.txt", diff } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Left the file as it is." } }] },
    ])
    const run = await runNvim<Observed>(scenario("Reject", "keep hello as it is"), { cwd: ws.root, env: env(), timeoutMs: 60_000 })
    const seen = run.observed
    expect(seen, `nvim wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect(seen!.status, context).toBe("completed")
    expect(seen!.buffer).toEqual(["hello", "world"])
    expect(seen!.modified).toBe(false)
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe(ORIGINAL)
    expect(fake.requests.length, context).toBeGreaterThanOrEqual(3)
    // The request after the rejection carries the denial as the apply_diff tool result.
    const messages = fake.requests[2]!.body.messages as { role: string; content: unknown }[]
    const last = JSON.stringify(messages.at(-1))
    expect(last).toContain("tool_result")
    expect(last).toMatch(/reject|denied|declined/i)
    expect(last).toContain("keep hello as it is")
    expect(seen!.transcript.join("\n")).toMatch(/apply_diff.*denied/)
    expect(run.code, run.stderr).toBe(0)
  }, 90_000)

  it("draws the diff before asking, quotes exactly the selected lines, keeps two replies apart, and :AgentMode after the end sets the next task's mode", async () => {
    await import("node:fs/promises").then((fs) => fs.writeFile(ws.path("a.txt"), "hello\nworld\nthird\nfourth\n"))
    fake = await startFakeAnthropic([
      { text: "done", stop: "end_turn" },
      { text: "done", toolCalls: [{ name: "apply_diff", input: { path: "a.txt", diff } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "Changed." } }] },
    ])
    const after = `
      vim.cmd("AgentMode architect")
      local client = require("agent_lsp.client").get(buf)
      vim.wait(3000, function() return false end, 200)
      local modes = client.request_sync("agent/listModes", {}, 3000, buf)
      local task = client.request_sync("agent/getTask", { taskId = state.active }, 3000, buf)
      observed.after = {
        defaultMode = modes and modes.result and modes.result.defaultMode,
        finishedMode = task and task.result and task.result.mode,
        statusline = require("agent_lsp").statusline(),
      }
    `
    const run = await runNvim<Observed>(scenario("Allow once", null, "2,3AgentTask explain these lines", after), {
      cwd: ws.root,
      env: env(),
      timeoutMs: 60_000,
    })
    const seen = run.observed
    expect(seen, `nvim wrote nothing (exit ${run.code})\n${run.stderr}`).toBeDefined()
    const context = JSON.stringify({ ...seen, stderr: run.stderr }, null, 1)
    expect(seen!.status, context).toBe("completed")
    // The diff float was open (and redrawn) while vim.ui.select waited.
    expect(seen!.floats[0], context).toEqual(expect.arrayContaining(["-hello", "+hello there"]))
    // Lines 2-3 as context: "world" and "third", not "fourth" (the range ends at line 3, character 0).
    const first = JSON.stringify(fake.requests[0]!.body.messages[0])
    expect(first).toContain("lines 2-3")
    expect(first).toContain("world\\nthird")
    expect(first).not.toContain("fourth")
    // Two model replies that both said "done" are two paragraphs, not "donedone".
    expect(seen!.transcript.join("\n")).not.toContain("donedone")
    expect(seen!.transcript.filter((l) => l === "done")).toHaveLength(2)
    // The transcript window's own statusline shows the end of the task.
    expect(seen!.transcriptStatusline).toMatch(/^agent: completed/)
    // :AgentMode after the task ended changed the next task's mode and left the finished task alone.
    expect(seen!.after, context).toEqual({
      defaultMode: "architect",
      finishedMode: "code",
      statusline: expect.stringMatching(/^agent: completed/),
    })
    expect(run.code, run.stderr).toBe(0)
  }, 90_000)
})
