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
  state.apply(params.taskId, params.update)
  transcript.update(params.taskId, params.update)
  if params.update.kind == "status" or params.update.kind == "completed" or params.update.kind == "mode" then
    pcall(vim.cmd, "redrawstatus")
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
    ["workspace/applyEdit"] = save.wrap_apply_edit(vim.lsp.handlers["workspace/applyEdit"]),
  }
end

return M
