-- Defaults of require("agent_lsp").setup(opts) and the merge of the user's options.
local M = {}

M.defaults = {
  -- The server command. The server reads ANTHROPIC_API_KEY from the environment.
  cmd = { "agent-lsp", "--stdio" },
  -- Extra environment for the server process (e.g. { ANTHROPIC_BASE_URL = "..." }).
  cmd_env = nil,
  -- The `agent` settings section (see :help agent_lsp-settings). Sent as initializationOptions.agent,
  -- the only source (besides the global settings file) the server trusts for sensitive keys.
  settings = {},
  -- Files or folders that mark a workspace root; the current directory when none is found.
  root_markers = { ".git", ".roomodes", ".roo", ".hg" },
  -- Milliseconds; 0 sends didChange at once (the server waits for the didChange that confirms an edit).
  debounce_text_changes = 0,
  -- How the transcript split opens: any :split modifier ("botright vsplit", "belowright split", ...).
  transcript_split = "botright vsplit",
  -- Open the transcript when a task starts.
  open_transcript = true,
  -- Attach to buffers of every filetype (the agent is not language specific).
  autoattach = true,
}

M.options = vim.deepcopy(M.defaults)

function M.set(opts)
  M.options = vim.tbl_deep_extend("force", vim.deepcopy(M.defaults), opts or {})
  return M.options
end

return M
