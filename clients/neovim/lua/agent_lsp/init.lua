-- agent_lsp: a thin Neovim client for agent-lsp (an AI coding agent inside a language server).
-- require("agent_lsp").setup({ cmd = { "agent-lsp", "--stdio" }, settings = { ... } })
local M = {}

--- Starts (or reuses) one client per workspace root and attaches it to every file buffer.
function M.setup(opts)
  local config = require("agent_lsp.config")
  local client = require("agent_lsp.client")
  config.set(opts)
  if not config.options.autoattach then
    return
  end
  local group = vim.api.nvim_create_augroup("agent_lsp", { clear = true })
  vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
    group = group,
    callback = function(args)
      client.attach(args.buf)
    end,
  })
  for _, buf in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(buf) then
      client.attach(buf)
    end
  end
end

--- Attaches the agent client to a buffer by hand (when setup had autoattach = false).
function M.attach(buf)
  return require("agent_lsp.client").attach(buf)
end

--- The active task's state for statuslines (lualine: `{ require("agent_lsp").statusline }`).
function M.statusline()
  return require("agent_lsp.state").statusline()
end

--- The active task id, or nil.
function M.active_task()
  return require("agent_lsp.state").active
end

return M
