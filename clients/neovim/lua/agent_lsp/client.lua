-- Starting (or reusing) one agent-lsp client per workspace root and attaching it to buffers.
-- Neovim 0.8+ uses vim.lsp.start (which reuses a client with the same name and root); 0.7 keeps its
-- own root → client table and uses vim.lsp.start_client + vim.lsp.buf_attach_client.
local config = require("agent_lsp.config")
local names = require("agent_lsp.methods")

local M = {}

M.name = "agent_lsp"

-- root → client id (Neovim 0.7 only)
local by_root = {}

--- capabilities.experimental.agent: every optional server → client request this plugin handles.
function M.capabilities()
  local caps = vim.lsp.protocol.make_client_capabilities()
  local agent = {}
  for _, key in ipairs(names.capabilities) do
    agent[key] = true
  end
  -- agentDiagnostics: the server asks for vim.diagnostic's problems after its edits (agent/diagnostics).
  caps.experimental = vim.tbl_extend("force", caps.experimental or {}, { agent = agent, agentDiagnostics = true })
  return caps
end

local function find_root(path)
  local dir = path ~= "" and vim.fn.fnamemodify(path, ":p:h") or vim.loop.cwd()
  while dir and dir ~= "" do
    for _, marker in ipairs(config.options.root_markers) do
      if vim.loop.fs_stat(dir .. "/" .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ":h")
    if parent == dir then
      break
    end
    dir = parent
  end
  return vim.loop.cwd()
end

--- The vim.lsp client config for a workspace root.
function M.make_config(root)
  local opts = config.options
  -- An empty Lua table is encoded as a JSON array ([]): send an empty object for no settings.
  local agent = (opts.settings and next(opts.settings) ~= nil) and opts.settings or vim.empty_dict()
  return {
    name = M.name,
    cmd = opts.cmd,
    cmd_env = opts.cmd_env,
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = vim.fn.fnamemodify(root, ":t") } },
    capabilities = M.capabilities(),
    init_options = { agent = agent },
    settings = { agent = agent },
    flags = { debounce_text_changes = opts.debounce_text_changes },
    handlers = require("agent_lsp.handlers").handlers(),
  }
end

local function attachable(buf)
  return vim.api.nvim_buf_is_valid(buf)
    and vim.api.nvim_buf_get_option(buf, "buftype") == ""
    and vim.api.nvim_buf_get_name(buf) ~= ""
end

--- Starts or reuses the client for the buffer's workspace root and attaches it. Returns the client id.
function M.attach(buf)
  buf = (buf == nil or buf == 0) and vim.api.nvim_get_current_buf() or buf
  if not attachable(buf) then
    return nil
  end
  local root = find_root(vim.api.nvim_buf_get_name(buf))
  if vim.lsp.start then
    return vim.lsp.start(M.make_config(root), { bufnr = buf })
  end
  local id = by_root[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(M.make_config(root))
    by_root[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(buf, id)
  end
  return id
end

--- The agent client of a buffer (the current one by default), else any running agent client.
function M.get(buf)
  buf = buf or vim.api.nvim_get_current_buf()
  local any
  for _, client in pairs(require("agent_lsp.compat").clients()) do
    if client.name == M.name then
      if vim.lsp.buf_is_attached(buf, client.id) then
        return client
      end
      any = any or client
    end
  end
  return any
end

--- The client or an error message telling the user what to do.
function M.require()
  local client = M.get()
  if not client then
    vim.notify("agent_lsp: no agent-lsp client runs; open a file after require('agent_lsp').setup()", vim.log.levels.ERROR)
  end
  return client
end

return M
