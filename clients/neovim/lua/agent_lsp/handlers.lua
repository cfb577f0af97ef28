-- The client's handlers for agent-lsp's server → client messages (per client, not global, so other
-- language servers keep Neovim's defaults).
local names = require("agent_lsp.methods")
local state = require("agent_lsp.state")
local transcript = require("agent_lsp.transcript")

local M = {}

local function on_task_update(_, params)
  if not params or not params.update then
    return
  end
  local task_id, update = params.taskId, params.update
  local known = state.tasks[task_id] ~= nil
  state.apply(task_id, update)
  if not known then
    -- A task this plugin did not start (a code action ran agent.newTask, or the newTask reply is
    -- still on its way): follow it like one started with :AgentTask.
    transcript.start(task_id, "Task " .. task_id)
    local current = state.active and state.tasks[state.active]
    if not current or current.status ~= "running" then
      state.set_active(task_id)
      if require("agent_lsp.config").options.open_transcript then
        transcript.open(task_id)
      end
    end
  end
  transcript.update(task_id, update)
  if update.kind == "subtask" then
    -- The subtask runs in place of its paused parent: follow it, in its own transcript.
    local child = state.task(update.childTaskId)
    child.parent = task_id
    child.title = child.title or ("Subtask of " .. task_id)
    transcript.start(update.childTaskId, child.title)
    local parent_buf = transcript.buffer(task_id)
    if state.active == task_id then
      state.set_active(update.childTaskId)
      if parent_buf and #vim.fn.win_findbuf(parent_buf) > 0 then
        transcript.open(update.childTaskId)
      end
    end
  elseif update.kind == "completed" then
    local t = state.task(task_id)
    if t.parent and state.active == task_id then
      state.set_active(t.parent)
    end
  end
  local redraw = { status = true, completed = true, mode = true, permissionMode = true, subtask = true }
  if redraw[update.kind] then
    -- Every window's statusline (lualine's and the transcript windows'), not only the current one.
    pcall(vim.cmd, "redrawstatus!")
  end
end

local function on_request_approval(_, req, ctx)
  vim.schedule(function()
    require("agent_lsp.ask").approve(ctx.client_id, req)
  end)
  return { deferred = true }
end

local function on_ask_followup(_, req, ctx)
  vim.schedule(function()
    require("agent_lsp.ask").question(ctx.client_id, req)
  end)
  return { deferred = true }
end

--- The handlers table given to vim.lsp for the agent client.
function M.handlers()
  local save = require("agent_lsp.save")
  return {
    [names.methods.taskUpdate] = on_task_update,
    [names.methods.requestApproval] = on_request_approval,
    [names.methods.askFollowup] = on_ask_followup,
    [names.methods.saveDocuments] = save.handler,
    [names.methods.diagnostics] = require("agent_lsp.diagnostics").handler,
    [names.methods.languageFeature] = require("agent_lsp.language").handler,
    ["workspace/applyEdit"] = save.wrap_apply_edit(vim.lsp.handlers["workspace/applyEdit"]),
  }
end

return M
