import { readFile } from "node:fs/promises"
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { hasNvim, runNvim } from "../../e2e/nvim-runner"

// These run the plugin's Lua in a real headless Neovim (no server): the handlers are called the way
// vim.lsp calls them, with a recording stand-in for the client where one is needed.

let ws: TempWorkspace
beforeAll(() => {
  expect(hasNvim, "nvim is not installed (apt-get install -y neovim)").toBe(true)
})
beforeEach(async () => {
  ws = await tempWorkspace({ "a.txt": "one\ntwo\n" })
})
afterEach(async () => {
  await ws.cleanup()
})

describe("neovim plugin (real headless nvim, no server)", () => {
  it("renders streamed text, each tool call once (plus a refusal), fenced command output, todos and the result", async () => {
    const run = await runNvim<{ lines: string[]; ft: string }>(
      `
      local t = require("agent_lsp.transcript")
      t.start("t1", "rename foo")
      local updates = {
        { kind = "text", delta = "Let me " }, { kind = "text", delta = "look.\\n" },
        { kind = "toolCall", callId = "c1", tool = "read_file", params = { path = "a" }, status = "streaming" },
        { kind = "toolCall", callId = "c1", tool = "read_file", params = { path = "a.txt" }, status = "streaming" },
        { kind = "toolCall", callId = "c1", tool = "read_file", params = { path = "a.txt" }, status = "running" },
        { kind = "toolResult", callId = "c1", tool = "read_file", isError = false, summary = "read 2 lines" },
        { kind = "toolCall", callId = "c1", tool = "read_file", params = { path = "a.txt" }, status = "done" },
        { kind = "toolCall", callId = "c2", tool = "execute_command", params = { command = "ls" }, status = "running" },
        { kind = "commandOutput", callId = "c2", chunk = "a.txt\\nb" },
        { kind = "commandOutput", callId = "c2", chunk = ".txt\\n" },
        { kind = "toolResult", callId = "c2", tool = "execute_command", isError = true, summary = "exit 1" },
        { kind = "toolCall", callId = "c3", tool = "apply_diff", params = { path = "b.txt" }, status = "awaitingApproval" },
        { kind = "toolCall", callId = "c3", tool = "apply_diff", params = { path = "b.txt" }, status = "denied" },
        { kind = "todos", todos = { { text = "read", status = "completed" }, { text = "edit", status = "in_progress" } } },
        { kind = "completed", result = "Renamed foo." },
      }
      for _, u in ipairs(updates) do t.update("t1", u) end
      local buf = t.buffer("t1")
      observe({ lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false), ft = vim.api.nvim_buf_get_option(buf, "filetype") })
      `,
      { cwd: ws.root },
    )
    expect(run.observed).toBeDefined()
    expect(run.code).toBe(0)
    const { lines, ft } = run.observed!
    expect(ft).toBe("markdown")
    expect(lines).toEqual([
      "# rename foo",
      "",
      "Let me look.",
      "",
      "- **read_file** `a.txt` — running",
      "  ✓ read 2 lines",
      "- **execute_command** `ls` — running",
      "```",
      "a.txt",
      "b.txt",
      "```",
      "  ✗ exit 1",
      "- **apply_diff** `b.txt` — awaiting approval",
      "- **apply_diff** `b.txt` — denied",
      "**Todos**",
      "- [x] read",
      "- [-] edit",
      "",
      "## Completed",
      "",
      "Renamed foo.",
      "",
    ])
  })

  it("keeps a transcript window at the end while new text arrives unless the user scrolled up", async () => {
    const run = await runNvim<{ followed: boolean; stayed: number }>(
      `
      local t = require("agent_lsp.transcript")
      t.start("t1", "task")
      for i = 1, 50 do t.update("t1", { kind = "text", delta = "line " .. i .. "\\n" }) end
      local win = t.open("t1", { focus = true })
      t.update("t1", { kind = "text", delta = "more\\n" })
      local buf = t.buffer("t1")
      local followed = vim.api.nvim_win_get_cursor(win)[1] == vim.api.nvim_buf_line_count(buf)
      vim.api.nvim_win_set_cursor(win, { 5, 0 })
      t.update("t1", { kind = "text", delta = "even more\\n" })
      observe({ followed = followed, stayed = vim.api.nvim_win_get_cursor(win)[1] })
      `,
      { cwd: ws.root },
    )
    expect(run.observed).toEqual({ followed: true, stayed: 5 })
  })

  it("saves a buffer that holds only the agent's edit and reports it saved", async () => {
    const run = await runNvim<{ saved: string[]; modified: boolean }>(
      `
      vim.cmd("edit a.txt")
      local save = require("agent_lsp.save")
      local apply = save.wrap_apply_edit(function(_, params) vim.lsp.util.apply_workspace_edit(params.edit, "utf-16") return { applied = true } end)
      local uri = vim.uri_from_bufnr(0)
      apply(nil, { edit = { documentChanges = { { textDocument = { uri = uri, version = 0 },
        edits = { { range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 3 } }, newText = "ONE" } } } } } }, {})
      local result = save.handler(nil, { uris = { uri } })
      observe({ saved = result.saved, modified = vim.bo.modified })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.saved).toHaveLength(1)
    expect(run.observed?.modified).toBe(false)
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("ONE\ntwo\n")
  })

  it("does not save a buffer with the user's own unsaved changes and asks the user instead", async () => {
    const run = await runNvim<{ saved: string[]; asked: string | null }>(
      `
      vim.cmd("edit a.txt")
      vim.api.nvim_buf_set_lines(0, 1, 2, false, { "typed by the user" })
      local asked = nil
      vim.ui.select = function(items, opts, cb) asked = opts.prompt cb(nil) end
      local save = require("agent_lsp.save")
      local apply = save.wrap_apply_edit(function(_, params) vim.lsp.util.apply_workspace_edit(params.edit, "utf-16") return { applied = true } end)
      local uri = vim.uri_from_bufnr(0)
      apply(nil, { edit = { documentChanges = { { textDocument = { uri = uri, version = 0 },
        edits = { { range = { start = { line = 0, character = 0 }, ["end"] = { line = 0, character = 3 } }, newText = "ONE" } } } } } }, {})
      local result = save.handler(nil, { uris = { uri } })
      vim.wait(1000, function() return asked ~= nil end)
      observe({ saved = result.saved, asked = asked })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.saved).toEqual([])
    expect(run.observed?.asked).toContain("a.txt")
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("one\ntwo\n")
  })

  it("answers an approval with deferred at once and sends the option picked later through agent/respond", async () => {
    const run = await runNvim<{ answer: unknown; sent: { method: string; params: Record<string, unknown> }[] }>(
      `
      local sent = {}
      vim.lsp.get_client_by_id = function() return { request = function(method, params) table.insert(sent, { method = method, params = params }) end } end
      vim.ui.select = function(items, opts, cb)
        vim.defer_fn(function()
          for _, o in ipairs(items) do if opts.format_item(o) == "Allow once" then cb(o) end end
        end, 20)
      end
      local handlers = require("agent_lsp.handlers").handlers()
      local answer = handlers["agent/requestApproval"](nil, {
        requestId = "a1", taskId = "t1", callId = "c1", tool = "apply_diff", title = "Edit a.txt?", detail = "", diff = "--- a\\n+++ b\\n",
        options = { { optionId = "o1", label = "Allow once", kind = "allow_once" }, { optionId = "o2", label = "Reject", kind = "reject_once" } },
      }, { client_id = 1 })
      local answered_at_once = vim.deepcopy(answer)
      vim.wait(2000, function() return #sent > 0 end)
      observe({ answer = answered_at_once, sent = sent })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.answer).toEqual({ deferred: true })
    expect(run.observed?.sent).toEqual([{ method: "agent/respond", params: { requestId: "a1", optionId: "o1" } }])
  })

  it("rejects an approval whose picker was dismissed", async () => {
    const run = await runNvim<{ sent: { method: string; params: Record<string, unknown> }[] }>(
      `
      local sent = {}
      vim.lsp.get_client_by_id = function() return { request = function(method, params) table.insert(sent, { method = method, params = params }) end } end
      vim.ui.select = function(items, opts, cb) vim.defer_fn(function() cb(nil) end, 10) end
      vim.ui.input = function(opts, cb) cb(nil) end
      require("agent_lsp.handlers").handlers()["agent/requestApproval"](nil, {
        requestId = "a2", taskId = "t1", callId = "c1", tool = "execute_command", title = "Run ls?", detail = "", command = "ls",
        options = { { optionId = "yes", label = "Allow once", kind = "allow_once" }, { optionId = "no", label = "Reject", kind = "reject_once" } },
      }, { client_id = 1 })
      vim.wait(2000, function() return #sent > 0 end)
      observe({ sent = sent })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.sent).toEqual([{ method: "agent/respond", params: { requestId: "a2", optionId: "no" } }])
  })

  it("keeps a dismissed question open and answers it through agent/respond on the next :AgentSend", async () => {
    const run = await runNvim<{ answer: unknown; sent: { method: string; params: Record<string, unknown> }[] }>(
      `
      local sent = {}
      local fake = { id = 1, request = function(method, params) table.insert(sent, { method = method, params = params }) end }
      vim.lsp.get_client_by_id = function() return fake end
      require("agent_lsp.client").get = function() return fake end
      vim.ui.select = function(items, opts, cb) vim.defer_fn(function() cb(nil) end, 10) end
      require("agent_lsp.state").set_active("t1")
      local answer = require("agent_lsp.handlers").handlers()["agent/askFollowup"](nil, {
        requestId = "a3", taskId = "t1", question = "Which file?", suggestions = { { text = "a.txt" } },
      }, { client_id = 1 })
      vim.wait(2000, function() return require("agent_lsp.state").pending_question.t1 ~= nil end)
      vim.cmd("AgentSend b.txt please")
      vim.cmd("AgentSend and then test")
      observe({ answer = answer, sent = sent })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.answer).toEqual({ deferred: true })
    expect(run.observed?.sent).toEqual([
      { method: "agent/respond", params: { requestId: "a3", answer: "b.txt please" } },
      { method: "agent/sendMessage", params: { taskId: "t1", text: "and then test" } },
    ])
  })

  it("sends a visual range with :AgentTask as the task's context and opens the transcript", async () => {
    const run = await runNvim<{ sent: { method: string; params: Record<string, unknown> }[]; active: string; transcriptShown: boolean }>(
      `
      vim.cmd("edit a.txt")
      local sent = {}
      local fake = { id = 1, request = function(method, params, handler)
        table.insert(sent, { method = method, params = params })
        handler(nil, { taskId = "t7" })
      end }
      require("agent_lsp.client").get = function() return fake end
      vim.cmd("1,2AgentTask explain these lines")
      local buf = require("agent_lsp.transcript").buffer("t7")
      observe({ sent = sent, active = require("agent_lsp").active_task(), transcriptShown = buf ~= nil and #vim.fn.win_findbuf(buf) > 0 })
      `,
      { cwd: ws.root },
    )
    const uri = `file://${ws.path("a.txt")}`
    expect(run.observed?.sent).toEqual([
      {
        method: "agent/newTask",
        params: {
          text: "explain these lines",
          context: [{ uri, range: { start: { line: 0, character: 0 }, end: { line: 2, character: 0 } } }],
        },
      },
      // The new task's Roo and permission modes are read back for the statusline.
      { method: "agent/getTask", params: { taskId: "t7" } },
    ])
    expect(run.observed?.active).toBe("t7")
    expect(run.observed?.transcriptShown).toBe(true)
  })

  it("completes a leading /word of :AgentTask and :AgentSend from agent/listCommands, and nothing else", async () => {
    const run = await runNvim<{ task: string[]; send: string[]; ranged: string[]; second: string[]; plain: string[]; asked: string[] }>(
      `
      local asked = {}
      local fake = { id = 1, request_sync = function(method)
        table.insert(asked, method)
        return { result = { commands = { { name = "init", source = "builtin" }, { name = "release", source = "global" }, { name = "review", source = "workspace" } } } }
      end }
      require("agent_lsp.client").get = function() return fake end
      observe({
        task = vim.fn.getcompletion("AgentTask /re", "cmdline"),
        send = vim.fn.getcompletion("AgentSend /", "cmdline"),
        ranged = vim.fn.getcompletion("1,2AgentTask /i", "cmdline"),
        second = vim.fn.getcompletion("AgentTask fix /re", "cmdline"),
        plain = vim.fn.getcompletion("AgentTask re", "cmdline"),
        asked = asked,
      })
      `,
      { cwd: ws.root },
    )
    expect(run.code).toBe(0)
    expect(run.observed).toEqual({
      task: ["/release", "/review"],
      send: ["/init", "/release", "/review"],
      ranged: ["/init"],
      second: [],
      plain: [],
      asked: ["agent/listCommands", "agent/listCommands", "agent/listCommands"],
    })
  })

  it("lets :AgentTasks pick an interrupted task, fills its transcript from agent/getTask and resumes it", async () => {
    const run = await runNvim<{ methods: string[]; lines: string[] }>(
      `
      local methods = {}
      local answers = {
        ["agent/listTasks"] = { tasks = { { taskId = "t5", title = "old work", mode = "code", status = "interrupted", createdAt = "a", updatedAt = "b" } } },
        ["agent/getTask"] = { taskId = "t5", title = "old work", mode = "code", status = "interrupted", todos = {}, messages = {
          { role = "user", at = "a", text = "do the old work" },
          { role = "assistant", at = "b", text = "Working on it.", toolCalls = { { callId = "c1", tool = "read_file", params = { path = "a.txt" }, result = { isError = false, summary = "read" } } } },
        } },
      }
      local fake = { id = 1, request = function(method, params, handler)
        table.insert(methods, method)
        vim.defer_fn(function() handler(nil, answers[method] or {}) end, 5)
      end }
      require("agent_lsp.client").get = function() return fake end
      vim.ui.select = function(items, opts, cb)
        vim.defer_fn(function()
          if type(items[1]) == "string" then cb("Resume") else cb(items[1]) end
        end, 5)
      end
      vim.cmd("AgentTasks")
      local t = require("agent_lsp.transcript")
      vim.wait(2000, function() return #methods >= 3 and t.buffer("t5") ~= nil and vim.api.nvim_buf_line_count(t.buffer("t5")) > 3 end)
      local buf = t.buffer("t5")
      observe({ methods = methods, lines = buf and vim.api.nvim_buf_get_lines(buf, 0, -1, false) or {} })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.methods).toEqual(["agent/listTasks", "agent/getTask", "agent/resumeTask"])
    const text = run.observed!.lines.join("\n")
    expect(text).toContain("# old work")
    expect(text).toContain("> do the old work")
    expect(text).toContain("Working on it.")
    expect(text).toMatch(/\*\*read_file\*\* `a\.txt`/)
  })

  it("follows a subtask in its own transcript while it runs, then returns to the parent", async () => {
    const run = await runNvim<{ during: string; after: string; child: string[] }>(
      `
      local on_update = require("agent_lsp.handlers").handlers()["agent/taskUpdate"]
      local state = require("agent_lsp.state")
      state.set_active("p1")
      on_update(nil, { taskId = "p1", seq = 1, update = { kind = "text", delta = "Delegating." } })
      on_update(nil, { taskId = "p1", seq = 2, update = { kind = "subtask", childTaskId = "c1" } })
      on_update(nil, { taskId = "c1", seq = 1, update = { kind = "text", delta = "Child at work." } })
      local during = state.active
      on_update(nil, { taskId = "c1", seq = 2, update = { kind = "completed", result = "child done" } })
      local child = vim.api.nvim_buf_get_lines(require("agent_lsp.transcript").buffer("c1"), 0, -1, false)
      observe({ during = during, after = state.active, child = child })
      `,
      { cwd: ws.root },
    )
    expect(run.observed?.during).toBe("c1")
    expect(run.observed?.after).toBe("p1")
    expect(run.observed?.child.join("\n")).toContain("# Subtask of p1")
    expect(run.observed?.child.join("\n")).toContain("Child at work.")
  })

  it("follows a task started elsewhere (a code action's agent.newTask) when its first update arrives", async () => {
    const run = await runNvim<{ active: string; shown: boolean }>(
      `
      local on_update = require("agent_lsp.handlers").handlers()["agent/taskUpdate"]
      on_update(nil, { taskId = "x9", seq = 1, update = { kind = "status", status = "running" } })
      local t = require("agent_lsp.transcript")
      observe({ active = require("agent_lsp").active_task(), shown = #vim.fn.win_findbuf(t.buffer("x9")) > 0 })
      `,
      { cwd: ws.root },
    )
    expect(run.observed).toEqual({ active: "x9", shown: true })
  })
})
