-- Approvals and questions. The handlers answer { deferred = true } at once (Neovim before 0.9 must
-- answer a server request synchronously, and a picker may call back much later), then show the
-- request and send the user's choice with agent/respond. A dismissed approval is a rejection.
local names = require("agent_lsp.methods")

local M = {}

function M.respond(client_id, params)
  local client = vim.lsp.get_client_by_id(client_id)
  if not client then
    return
  end
  require("agent_lsp.compat").request(client, names.methods.respond, params, function(err)
    if err then
      vim.notify("agent_lsp: " .. (err.message or vim.inspect(err)), vim.log.levels.WARN)
    end
  end)
end

--- Shows the proposal (title, detail, command or diff) in a float; returns a function that closes it.
function M.preview(req)
  local lines = { req.title }
  if req.detail and req.detail ~= "" then
    vim.list_extend(lines, vim.split(req.detail, "\n", { plain = true }))
  end
  local ft = "markdown"
  if req.command then
    vim.list_extend(lines, { "", "$ " .. req.command })
  elseif req.diff then
    table.insert(lines, "")
    vim.list_extend(lines, vim.split(req.diff, "\n", { plain = true }))
    ft = "diff"
  end
  local buf = vim.api.nvim_create_buf(false, true)
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  vim.api.nvim_buf_set_option(buf, "filetype", ft)
  vim.api.nvim_buf_set_option(buf, "bufhidden", "wipe")
  local width = 20
  for _, l in ipairs(lines) do
    width = math.max(width, vim.fn.strdisplaywidth(l))
  end
  width = math.min(width + 2, math.max(20, vim.o.columns - 4))
  local height = math.min(#lines, math.max(3, vim.o.lines - 8))
  local ok, win = pcall(vim.api.nvim_open_win, buf, false, {
    relative = "editor",
    row = 1,
    col = math.max(0, math.floor((vim.o.columns - width) / 2)),
    width = width,
    height = height,
    style = "minimal",
    border = "rounded",
  })
  return function()
    if ok and vim.api.nvim_win_is_valid(win) then
      vim.api.nvim_win_close(win, true)
    end
  end
end

local function reject_option(options)
  for _, o in ipairs(options) do
    if o.kind == "reject_once" then
      return o
    end
  end
  for _, o in ipairs(options) do
    if o.kind == "reject_always" then
      return o
    end
  end
end

--- Shows an approval request and answers it through agent/respond.
function M.approve(client_id, req)
  local close = M.preview(req)
  -- Draw the diff now: the default vim.ui.select (inputlist) and many pickers block the screen update
  -- until they return, so without this the float appears only after the answer (0.7-0.10).
  vim.cmd("redraw")
  vim.ui.select(req.options, {
    prompt = req.title,
    kind = "agent_lsp_approval",
    format_item = function(o)
      return o.label
    end,
  }, function(choice)
    close()
    -- Fail closed: a dismissed picker rejects.
    choice = choice or reject_option(req.options)
    if not choice then
      return
    end
    if choice.kind == "reject_once" or choice.kind == "reject_always" then
      vim.ui.input({ prompt = "Feedback for the agent (optional): " }, function(feedback)
        M.respond(client_id, { requestId = req.requestId, optionId = choice.optionId, feedback = (feedback ~= "" and feedback) or nil })
      end)
    else
      M.respond(client_id, { requestId = req.requestId, optionId = choice.optionId })
    end
  end)
end

-- A dismissed question stays open: remember it so :AgentSend answers it (the server waits for
-- agent/respond on that requestId, not for a new message).
local function leave_open(req)
  require("agent_lsp.state").pending_question[req.taskId] = req.requestId
  vim.notify("agent_lsp: the agent waits for an answer; give it with :AgentSend {answer}", vim.log.levels.INFO)
end

--- Shows a follow-up question: its suggestions, or an answer typed by the user.
function M.question(client_id, req)
  local other = { text = "Type an answer…", other = true }
  local items = vim.list_extend(vim.deepcopy(req.suggestions or {}), { other })
  vim.ui.select(items, {
    prompt = req.question,
    kind = "agent_lsp_question",
    format_item = function(s)
      return s.mode and (s.text .. " (mode: " .. s.mode .. ")") or s.text
    end,
  }, function(choice)
    if not choice then
      leave_open(req)
      return
    end
    if not choice.other then
      M.respond(client_id, { requestId = req.requestId, answer = choice.text })
      return
    end
    vim.ui.input({ prompt = req.question .. " " }, function(answer)
      if answer and answer ~= "" then
        M.respond(client_id, { requestId = req.requestId, answer = answer })
      else
        leave_open(req)
      end
    end)
  end)
end

return M
