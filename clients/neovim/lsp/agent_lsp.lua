-- Neovim 0.11+: the server config for vim.lsp.config / vim.lsp.enable("agent_lsp"). Loaded from the
-- plugin's runtimepath, so `vim.lsp.enable("agent_lsp")` is all a user needs (instead of setup()).
-- Override any field with vim.lsp.config("agent_lsp", { ... }).
return {
  cmd = { "agent-lsp", "--stdio" },
  -- No `filetypes`: the agent is not language specific and attaches to every buffer.
  root_markers = { ".git", ".roomodes", ".roo", ".hg" },
  capabilities = require("agent_lsp.client").capabilities(),
  handlers = require("agent_lsp.handlers").handlers(),
  init_options = { agent = {} },
  settings = { agent = {} },
  flags = { debounce_text_changes = 0 },
}
