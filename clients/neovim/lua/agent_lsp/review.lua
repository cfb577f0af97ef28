-- Reviewing what a task changed: its unreviewed hunks in the quickfix list and as signs, keep or
-- reject on the hunk under the cursor, a file, or everything (agent/reviewChanges, agent/reviewDecide).
-- Neovim 0.7 API only (sign_place, setqflist).
local client_mod = require("agent_lsp.client")
local compat = require("agent_lsp.compat")
local names = require("agent_lsp.methods")
local state = require("agent_lsp.state")

local M = {}

local SIGN_GROUP = "agent_lsp_review"
vim.fn.sign_define("AgentReviewHunk", { text = "▎", texthl = "DiffChange" })

-- The last listing: file path → hunks ({ hunkId, first, last } with 1-based lines) of M.task_id.
M.files = {}
M.task_id = nil

local function notify(message, level)
  vim.notify("agent_lsp: " .. message, level or vim.log.levels.INFO)
end

local function lines_of(text)
  local n = select(2, text:gsub("\n", ""))
  if text ~= "" and text:sub(-1) ~= "\n" then
    n = n + 1
  end
  return n
end

local function first_line(text)
  return (text:match("^([^\n]*)") or ""):sub(1, 80)
end

local function place_signs()
  vim.fn.sign_unplace(SIGN_GROUP)
  for path, hunks in pairs(M.files) do
    local buf = vim.fn.bufnr(path)
    if buf > 0 and vim.api.nvim_buf_is_loaded(buf) then
      for _, h in ipairs(hunks) do
        for lnum = h.first, math.max(h.first, h.last) do
          vim.fn.sign_place(0, SIGN_GROUP, "AgentReviewHunk", buf, { lnum = lnum, priority = 20 })
        end
      end
    end
  end
end

--- Lists the task's unreviewed hunks into the quickfix list and the signs; `done(files)` after.
function M.refresh(task_id, done)
  local client = client_mod.require()
  task_id = task_id or M.task_id or state.active
  if not client or not task_id then
    if not task_id then
      notify("no task to review yet", vim.log.levels.WARN)
    end
    return
  end
  compat.request(client, names.methods.reviewChanges, { taskId = task_id }, function(err, result)
    if err then
      return notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
    end
    M.task_id, M.files = task_id, {}
    local items = {}
    for _, file in ipairs(result.files) do
      local path = vim.uri_to_fname(file.uri)
      local hunks = {}
      for _, h in ipairs(file.hunks) do
        local first = h.range.start.line + 1
        local count = lines_of(h.newText)
        table.insert(hunks, { hunkId = h.hunkId, first = first, last = first + math.max(count, 1) - 1 })
        local what = file.status == "modified" and string.format("+%d -%d", count, lines_of(h.oldText)) or file.status
        table.insert(items, {
          filename = path,
          lnum = first,
          col = 1,
          text = string.format(
            "[%s%s%s] %s",
            what,
            file.byCommand and ", by a command" or "",
            h.userEdited and ", with your typing" or "",
            first_line(h.newText ~= "" and h.newText or ("removed: " .. h.oldText))
          ),
        })
      end
      M.files[path] = hunks
    end
    vim.fn.setqflist({}, "r", { title = "agent review " .. task_id, items = items })
    place_signs()
    if done then
      done(result.files)
    end
  end)
end

--- :AgentReview: fills the quickfix list with the active task's hunks and opens it.
function M.open(task_id)
  M.refresh(task_id, function(files)
    if #files == 0 then
      return notify("nothing left to review")
    end
    vim.cmd("copen")
  end)
end

local function hunk_at_cursor()
  local path = vim.api.nvim_buf_get_name(0)
  local line = vim.api.nvim_win_get_cursor(0)[1]
  for _, h in ipairs(M.files[path] or {}) do
    if line >= h.first and line <= math.max(h.first, h.last) then
      return h
    end
  end
  return nil
end

local function decide(decision)
  local client = client_mod.require()
  if not client or not M.task_id then
    return notify("run :AgentReview first", vim.log.levels.WARN)
  end
  compat.request(client, names.methods.reviewDecide, { taskId = M.task_id, decisions = { decision } }, function(err, r)
    if err then
      return notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
    end
    local parts = { string.format("kept %d, rejected %d", r.kept, r.rejected) }
    for _, f in ipairs(r.failed) do
      table.insert(parts, "not done: " .. f.reason)
    end
    for _, uri in ipairs(r.droppedUserEdits or {}) do
      table.insert(parts, "your typing in " .. vim.uri_to_fname(uri) .. " went too (:AgentReviewUndo)")
    end
    for _, p in ipairs(r.problems or {}) do
      table.insert(parts, string.format("new %s at %s:%d: %s", p.severity, vim.uri_to_fname(p.uri), p.line, p.message))
    end
    notify(table.concat(parts, "; "), #r.failed > 0 and vim.log.levels.WARN or nil)
    M.refresh(M.task_id)
  end)
end

--- Keep or reject the hunk under the cursor.
function M.hunk(action)
  local h = hunk_at_cursor()
  if not h then
    return notify("no unreviewed hunk under the cursor (:AgentReview lists them)", vim.log.levels.WARN)
  end
  decide({ hunkId = h.hunkId, action = action })
end

--- Keep or reject every hunk of the current file.
function M.file(action)
  decide({ uri = vim.uri_from_bufnr(0), action = action })
end

--- Keep or reject everything of the task.
function M.all(action)
  decide({ all = true, action = action })
end

--- Brings back what the last reject removed.
function M.undo()
  local client = client_mod.require()
  if not client or not M.task_id then
    return notify("run :AgentReview first", vim.log.levels.WARN)
  end
  local params = { command = names.commands.reviewUndoReject, arguments = { M.task_id } }
  compat.request(client, "workspace/executeCommand", params, function(err, r)
    if err then
      return notify(err.message or vim.inspect(err), vim.log.levels.ERROR)
    end
    notify(string.format("undo reject: %d file(s) restored", #r.restored))
    M.refresh(M.task_id)
  end)
end

return M
