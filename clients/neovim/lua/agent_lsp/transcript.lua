-- The transcript buffer of each task: a scratch markdown buffer in a split that streams the task's
-- updates. Windows whose cursor sits on the last line follow the end; a user who scrolled up stays put.
local config = require("agent_lsp.config")
local render = require("agent_lsp.render")

local M = {}

-- task id → { buf = number, renderer = table }
local views = {}

local function valid(buf)
  return buf and vim.api.nvim_buf_is_valid(buf)
end

local function create_buffer(task_id)
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_name(buf, "agent://transcript/" .. task_id)
  vim.api.nvim_buf_set_option(buf, "buftype", "nofile")
  vim.api.nvim_buf_set_option(buf, "bufhidden", "hide")
  vim.api.nvim_buf_set_option(buf, "swapfile", false)
  vim.api.nvim_buf_set_option(buf, "filetype", "markdown")
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
  return buf
end

--- The view of a task, created on first use.
function M.view(task_id)
  local v = views[task_id]
  if not v or not valid(v.buf) then
    v = { buf = create_buffer(task_id), renderer = render.new() }
    views[task_id] = v
  end
  return v
end

--- The transcript buffer number of a task, or nil if it has none.
function M.buffer(task_id)
  local v = views[task_id]
  return v and valid(v.buf) and v.buf or nil
end

--- Appends text to the buffer: the first piece continues the last line, each "\n" starts a new one.
function M.append(task_id, text)
  if text == nil or text == "" then
    return
  end
  local buf = M.view(task_id).buf
  local count = vim.api.nvim_buf_line_count(buf)
  -- Windows showing the end before the append keep showing it after.
  local following = {}
  for _, win in ipairs(vim.fn.win_findbuf(buf)) do
    if vim.api.nvim_win_get_cursor(win)[1] >= count then
      table.insert(following, win)
    end
  end
  local pieces = vim.split(text, "\n", { plain = true })
  local last = vim.api.nvim_buf_get_lines(buf, count - 1, count, false)[1] or ""
  pieces[1] = last .. pieces[1]
  vim.api.nvim_buf_set_option(buf, "modifiable", true)
  vim.api.nvim_buf_set_lines(buf, count - 1, count, false, pieces)
  vim.api.nvim_buf_set_option(buf, "modifiable", false)
  vim.api.nvim_buf_set_var(buf, "agent_lsp_started", true)
  local new_count = vim.api.nvim_buf_line_count(buf)
  for _, win in ipairs(following) do
    vim.api.nvim_win_set_cursor(win, { new_count, 0 })
  end
end

function M._started(buf)
  local ok, v = pcall(vim.api.nvim_buf_get_var, buf, "agent_lsp_started")
  return ok and v
end

--- Renders one agent/taskUpdate into the task's transcript.
function M.update(task_id, update)
  M.append(task_id, M.view(task_id).renderer.update(update))
end

--- Writes the task's title (and the user's request) at the top of a new transcript.
function M.start(task_id, title)
  local v = M.view(task_id)
  if not M._started(v.buf) then
    M.append(task_id, v.renderer.header(title))
  end
end

--- Puts the task's real title on the first line (its updates may have come before :AgentTask's reply).
function M.set_title(task_id, title)
  local buf = M.view(task_id).buf
  local first = vim.api.nvim_buf_get_lines(buf, 0, 1, false)[1] or ""
  if M._started(buf) and first:sub(1, 2) == "# " then
    vim.api.nvim_buf_set_option(buf, "modifiable", true)
    vim.api.nvim_buf_set_lines(buf, 0, 1, false, { "# " .. (title:gsub("%s+", " ")) })
    vim.api.nvim_buf_set_option(buf, "modifiable", false)
  end
end

--- Writes a message the user sent (:AgentSend) into the transcript.
function M.user(task_id, text)
  M.append(task_id, M.view(task_id).renderer.user(text))
end

--- Fills an empty transcript from agent/getTask's messages (a task started elsewhere or before a restart).
function M.fill(task_id, task)
  local v = M.view(task_id)
  if M._started(v.buf) then
    return
  end
  M.append(task_id, v.renderer.header(task.title or task_id))
  for _, entry in ipairs(task.messages or {}) do
    if entry.role == "user" then
      M.append(task_id, v.renderer.user(entry.text or ""))
    else
      if entry.text then
        M.append(task_id, v.renderer.update({ kind = "text", delta = entry.text }))
      end
      for _, call in ipairs(entry.toolCalls or {}) do
        local status = call.result and (call.result.isError and "error" or "done") or "running"
        M.append(task_id, v.renderer.update({ kind = "toolCall", callId = call.callId, tool = call.tool, params = call.params, status = status }))
        if call.result then
          M.append(task_id, v.renderer.update({ kind = "toolResult", callId = call.callId, tool = call.tool, isError = call.result.isError, summary = call.result.summary }))
        end
      end
    end
  end
end

--- The transcript window's statusline: "agent: completed (code)" (the title is the buffer's first line).
function M.status_line(task_id)
  local t = require("agent_lsp.state").tasks[task_id]
  if not t then
    return "agent"
  end
  local modes = require("agent_lsp.state").modes_label(t)
  return "agent: " .. (t.status or "?") .. (modes and (" (" .. modes .. ")") or "")
end

--- Shows the transcript in a split (or focuses the window that already shows it).
function M.open(task_id, opts)
  opts = opts or {}
  local buf = M.view(task_id).buf
  local wins = vim.fn.win_findbuf(buf)
  if #wins > 0 then
    if opts.focus then
      vim.api.nvim_set_current_win(wins[1])
    end
    return wins[1]
  end
  local current = vim.api.nvim_get_current_win()
  vim.cmd(config.options.transcript_split)
  local win = vim.api.nvim_get_current_win()
  vim.api.nvim_win_set_buf(win, buf)
  vim.api.nvim_win_set_option(win, "wrap", true)
  -- The window's own statusline follows the task's status (redrawn by the taskUpdate handler).
  vim.api.nvim_win_set_option(win, "statusline", "%{v:lua.require'agent_lsp.transcript'.status_line(" .. vim.fn.string(task_id) .. ")}")
  vim.api.nvim_win_set_cursor(win, { vim.api.nvim_buf_line_count(buf), 0 })
  if not opts.focus then
    vim.api.nvim_set_current_win(current)
  end
  return win
end

return M
