-- What the plugin knows about tasks: per task id its status, mode and last usage, plus the active task.
-- Kept in one place so commands, the statusline and the handlers agree.
local M = {}

M.tasks = {}
M.active = nil
-- task id → requestId of a question the user dismissed (answered by the next :AgentSend)
M.pending_question = {}

function M.task(task_id)
  local t = M.tasks[task_id]
  if not t then
    t = { id = task_id, status = "running", mode = nil, title = nil, completed = false }
    M.tasks[task_id] = t
  end
  return t
end

function M.set_active(task_id)
  M.active = task_id
end

--- Applies one agent/taskUpdate `update` to the task's state.
function M.apply(task_id, update)
  local t = M.task(task_id)
  local kind = update.kind
  if kind == "status" then
    t.status = update.status
    t.message = update.message
    if update.status ~= "waiting" then
      M.pending_question[task_id] = nil
    end
  elseif kind == "mode" then
    t.mode = update.mode
  elseif kind == "permissionMode" then
    t.permission_mode = update.mode
  elseif kind == "completed" then
    t.status = "completed"
    t.result = update.result
  elseif kind == "usage" then
    t.usage = update
  elseif kind == "error" then
    t.error = update.message
  end
  return t
end

--- The task's modes as shown beside its status: "code", "code, plan", "code, BYPASS permissions".
function M.modes_label(t)
  local parts = {}
  if t.mode then
    table.insert(parts, t.mode)
  end
  if t.permission_mode == "bypassPermissions" then
    table.insert(parts, "BYPASS permissions")
  elseif t.permission_mode then
    table.insert(parts, t.permission_mode)
  end
  return #parts > 0 and table.concat(parts, ", ") or nil
end

--- A short text for statuslines: "agent: running (code, acceptEdits)", "" when there is no task.
function M.statusline()
  if not M.active then
    return ""
  end
  local t = M.tasks[M.active]
  if not t then
    return ""
  end
  local s = "agent: " .. (t.status or "?")
  local modes = M.modes_label(t)
  if modes then
    s = s .. " (" .. modes .. ")"
  end
  return s
end

return M
