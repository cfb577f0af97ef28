-- agent/languageFeature: the agent's lsp and rename_symbol tools answered by Neovim's own language
-- servers, the ones attached to the file's buffer (loaded without being shown). Works on Neovim 0.7:
-- vim.fn.bufload, vim.lsp.buf_get_clients and client.request_sync all exist there.
local M = {}

local REQUESTS = {
  goToDefinition = "textDocument/definition",
  findReferences = "textDocument/references",
  hover = "textDocument/hover",
  documentSymbol = "textDocument/documentSymbol",
  goToImplementation = "textDocument/implementation",
  rename = "textDocument/rename",
}
-- Below the server's agent.timeouts.editorSeconds (30 s by default), so Neovim answers before it gives up.
local TIMEOUT_MS = 20000
-- How long a freshly loaded buffer may take to get its language servers attached.
local ATTACH_WAIT_MS = 5000

--- Language servers of `bufnr` other than the agent itself.
local function servers_of(bufnr)
  local agent = require("agent_lsp.client").name
  local out = {}
  for _, client in pairs(vim.lsp.buf_get_clients(bufnr)) do
    if client.name ~= agent then
      table.insert(out, client)
    end
  end
  return out
end

--- The file's buffer, loaded (filetype autocommands attach its servers) but not shown.
local function buffer_of(uri)
  local bufnr = vim.uri_to_bufnr(uri)
  if not vim.api.nvim_buf_is_loaded(bufnr) then
    vim.fn.bufload(bufnr)
  end
  if vim.api.nvim_buf_get_option(bufnr, "filetype") == "" then
    vim.api.nvim_buf_call(bufnr, function()
      vim.cmd("filetype detect")
    end)
  end
  vim.wait(ATTACH_WAIT_MS, function()
    return #servers_of(bufnr) > 0
  end, 20)
  return bufnr
end

--- The first non-null answer of `clients` to one request.
local function first_answer(clients, method, params, bufnr)
  for _, client in ipairs(clients) do
    local response = client.request_sync(method, params, TIMEOUT_MS, bufnr)
    if response and response.result ~= nil and response.result ~= vim.NIL then
      return response.result
    end
  end
  return nil
end

local function call_hierarchy(clients, params, bufnr, operation)
  local items = first_answer(clients, "textDocument/prepareCallHierarchy", params, bufnr)
  if not items then
    return nil
  end
  local method = operation == "incomingCalls" and "callHierarchy/incomingCalls" or "callHierarchy/outgoingCalls"
  local calls = {}
  for _, item in ipairs(items) do
    vim.list_extend(calls, first_answer(clients, method, { item = item }, bufnr) or {})
  end
  return calls
end

--- Answers with the language servers' own LSP result, or null when no server covers the file.
function M.handler(_, params)
  local op = params and params.operation
  local ok, result = pcall(function()
    if op == "workspaceSymbol" and not params.uri then
      local clients = {}
      for _, client in ipairs(vim.lsp.get_active_clients()) do
        if client.name ~= require("agent_lsp.client").name then
          table.insert(clients, client)
        end
      end
      return first_answer(clients, "workspace/symbol", { query = params.query or "" }, 0)
    end
    local bufnr = buffer_of(params.uri)
    local clients = servers_of(bufnr)
    if #clients == 0 then
      return nil
    end
    local request = { textDocument = { uri = params.uri }, position = params.position }
    if op == "workspaceSymbol" then
      return first_answer(clients, "workspace/symbol", { query = params.query or "" }, bufnr)
    elseif op == "incomingCalls" or op == "outgoingCalls" then
      return call_hierarchy(clients, request, bufnr, op)
    elseif op == "documentSymbol" then
      return first_answer(clients, REQUESTS[op], { textDocument = request.textDocument }, bufnr)
    elseif op == "findReferences" then
      request.context = { includeDeclaration = true }
    elseif op == "rename" then
      request.newName = params.newName
    end
    return REQUESTS[op] and first_answer(clients, REQUESTS[op], request, bufnr) or nil
  end)
  if not ok then
    return nil, { code = -32603, message = tostring(result) }
  end
  if result == nil then
    return vim.NIL
  end
  return result
end

return M
