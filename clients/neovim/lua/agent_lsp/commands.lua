-- The user commands: :AgentTask, :AgentSend, :AgentCancel, :AgentMode, :AgentPermissions, :AgentTasks, :AgentTranscript.
local client_mod = require("agent_lsp.client")
local compat = require("agent_lsp.compat")
local config = require("agent_lsp.config")
local names = require("agent_lsp.methods")
local state = require("agent_lsp.state")
local transcript = require("agent_lsp.transcript")

local M = {}

local function report(err)
  if err then
    vim.notify("agent_lsp: " .. (err.message or vim.inspect(err)), vim.log.levels.ERROR)
    return true
  end
  return false
end

local function active_task()
  if not state.active then
    vim.notify("agent_lsp: no task yet; start one with :AgentTask {text}", vim.log.levels.WARN)
  end
  return state.active
end

--- :AgentTask {text}; with a range, the selected lines go along as context.
function M.task(opts)
  local client = client_mod.require()
  if not client then
    return
  end
  local params = { text = opts.args }
  local name = vim.api.nvim_buf_get_name(0)
  if opts.range and opts.range > 0 and name ~= "" then
    params.context = {
      {
        uri = vim.uri_from_bufnr(0),
        range = { start = { line = opts.line1 - 1, character = 0 }, ["end"] = { line = opts.line2, character = 0 } },
      },
    }
  end
  compat.request(client, names.methods.newTask, params, function(err, result)
    if report(err) then
      return
    end
    local t = state.task(result.taskId)
    t.title = opts.args
    state.set_active(result.taskId)
    -- The modes it starts in (the statusline shows them; updates only tell of later switches).
    compat.request(client, names.methods.getTask, { taskId = result.taskId }, function(get_err, task)
      if not get_err and task then
        t.mode = t.mode or task.mode
        t.permission_mode = t.permission_mode or task.permissionMode
        pcall(vim.cmd, "redrawstatus!")
      end
    end)
    transcript.start(result.taskId, opts.args)
    transcript.set_title(result.taskId, opts.args)
    if config.options.open_transcript then
      transcript.open(result.taskId)
    end
  end, vim.api.nvim_get_current_buf())
end

--- :AgentSend {text}: answers the active task's question or continues it.
function M.send(opts)
  local client, task_id = client_mod.require(), active_task()
  if not client or not task_id then
    return
  end
  transcript.user(task_id, opts.args)
  local request_id = state.pending_question[task_id]
  if request_id then
    state.pending_question[task_id] = nil
    require("agent_lsp.ask").respond(client.id, { requestId = request_id, answer = opts.args })
    return
  end
  compat.request(client, names.methods.sendMessage, { taskId = task_id, text = opts.args }, function(err)
    report(err)
  end)
end

--- :AgentCancel
function M.cancel()
  local client, task_id = client_mod.require(), active_task()
  if not client or not task_id then
    return
  end
  compat.request(client, names.methods.cancelTask, { taskId = task_id }, function(err)
    report(err)
  end)
end

-- Statuses in which a task still runs (or waits for the user): :AgentMode switches such a task.
local live = { running = true, waiting = true, paused = true }

--- :AgentMode {mode}: the running task's mode; otherwise the mode of the next task (a finished task
--- is left as it was).
function M.mode(opts)
  local client = client_mod.require()
  if not client then
    return
  end
  local t = state.active and state.tasks[state.active]
  local task_id = (t and live[t.status]) and state.active or nil
  compat.request(client, names.methods.setMode, { mode = opts.args, taskId = task_id }, function(err)
    if not report(err) then
      if task_id then
        vim.notify("agent_lsp: the running task switches to " .. opts.args .. " mode")
      else
        vim.notify("agent_lsp: the next task runs in " .. opts.args .. " mode")
      end
    end
  end)
end

-- Claude Code's permission modes, as agent/setPermissionMode takes them.
local permission_modes = { "default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions" }

--- :AgentPermissions {mode}: the running task's permission mode, else that of new tasks; without an
--- argument, a picker (vim.ui.select).
function M.permissions(opts)
  local client = client_mod.require()
  if not client then
    return
  end
  local t = state.active and state.tasks[state.active]
  local task_id = (t and live[t.status]) and state.active or nil
  local function set(mode)
    if not mode then
      return
    end
    compat.request(client, names.methods.setPermissionMode, { mode = mode, taskId = task_id }, function(err, result)
      if not report(err) then
        local now = result and result.mode or mode
        local loud = now == "bypassPermissions" and " (BYPASS: nothing but deny lists and protected paths asks)" or ""
        vim.notify("agent_lsp: permission mode " .. now .. (task_id and " for the running task" or " for new tasks") .. loud)
      end
    end)
  end
  if opts.args ~= "" then
    return set(opts.args)
  end
  vim.ui.select(permission_modes, { prompt = "Agent permission mode" }, set)
end

function M.complete_permissions(arglead)
  return vim.tbl_filter(function(s)
    return vim.startswith(s, arglead)
  end, permission_modes)
end

--- Completion of :AgentMode: the server's mode slugs (agent/listModes), cached per client.
local mode_cache = {}
function M.complete_mode(arglead)
  local client = client_mod.get()
  if not client then
    return {}
  end
  local slugs = mode_cache[client.id]
  if not slugs then
    local response = compat.request_sync(client, names.methods.listModes, {}, 2000)
    if not response or response.err or not response.result then
      return {}
    end
    slugs = {}
    for _, m in ipairs(response.result.modes) do
      table.insert(slugs, m.slug)
    end
    mode_cache[client.id] = slugs
  end
  return vim.tbl_filter(function(s)
    return vim.startswith(s, arglead)
  end, slugs)
end

local function view_task(client, task)
  state.set_active(task.taskId)
  local t = state.task(task.taskId)
  t.title, t.status, t.mode, t.permission_mode = task.title, task.status, task.mode, task.permissionMode
  compat.request(client, names.methods.getTask, { taskId = task.taskId }, function(err, full)
    if not report(err) then
      transcript.fill(task.taskId, full)
    end
    transcript.open(task.taskId, { focus = true })
  end)
end

--- :AgentTasks: pick a task to view; an interrupted or cancelled one can be resumed.
function M.tasks()
  local client = client_mod.require()
  if not client then
    return
  end
  compat.request(client, names.methods.listTasks, {}, function(err, result)
    if report(err) then
      return
    end
    if #result.tasks == 0 then
      vim.notify("agent_lsp: no tasks yet")
      return
    end
    vim.ui.select(result.tasks, {
      prompt = "Agent tasks",
      kind = "agent_lsp_task",
      format_item = function(t)
        return string.format("[%s] %s (%s, %s)", t.status, t.title, state.modes_label({ mode = t.mode, permission_mode = t.permissionMode }), t.updatedAt)
      end,
    }, function(task)
      if not task then
        return
      end
      if task.status ~= "interrupted" and task.status ~= "cancelled" then
        view_task(client, task)
        return
      end
      vim.ui.select({ "View", "Resume" }, { prompt = task.title }, function(action)
        if action == "View" then
          view_task(client, task)
        elseif action == "Resume" then
          view_task(client, task)
          compat.request(client, names.methods.resumeTask, { taskId = task.taskId }, function(e)
            report(e)
          end)
        end
      end)
    end)
  end)
end

--- :AgentTranscript: shows the active task's transcript.
function M.show_transcript()
  local task_id = active_task()
  if task_id then
    transcript.open(task_id, { focus = true })
  end
end

return M
