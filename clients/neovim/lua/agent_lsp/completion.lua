-- Command-line completion of :AgentTask and :AgentSend: a first argument starting with "/" completes to
-- the server's slash commands (agent/listCommands), which the server expands when the text arrives.
local client_mod = require("agent_lsp.client")
local compat = require("agent_lsp.compat")
local names = require("agent_lsp.methods")

local M = {}

--- True when `arglead` is the first argument of the command line (`:AgentTask /rev`, also after a range).
local function is_first_argument(arglead, cmdline)
  local args = cmdline:match("^.-Agent%a+!?%s+(.*)$")
  return args ~= nil and args == arglead
end

--- "/name" completions for a first argument that starts with "/"; nothing otherwise.
function M.slash_commands(arglead, cmdline)
  if arglead:sub(1, 1) ~= "/" or not is_first_argument(arglead, cmdline or "") then
    return {}
  end
  local client = client_mod.get()
  if not client then
    return {}
  end
  -- Asked each time (the files may change); bounded so a busy server never freezes the command line.
  local response = compat.request_sync(client, names.methods.listCommands, {}, 1000)
  if not response or response.err or not response.result then
    return {}
  end
  local out = {}
  for _, command in ipairs(response.result.commands) do
    local word = "/" .. command.name
    if vim.startswith(word, arglead) then
      table.insert(out, word)
    end
  end
  return out
end

return M
