-- Calls whose spelling changed across Neovim versions. 0.7 client methods are closures called with a
-- dot; 0.11 made them methods (colon) and deprecated the dot form; get_active_clients became get_clients.
local M = {}

local methods_take_self = vim.fn.has("nvim-0.11") == 1

function M.request(client, method, params, handler, bufnr)
  if methods_take_self then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

function M.request_sync(client, method, params, timeout_ms, bufnr)
  if methods_take_self then
    return client:request_sync(method, params, timeout_ms, bufnr)
  end
  return client.request_sync(method, params, timeout_ms, bufnr)
end

--- Every running LSP client.
function M.clients()
  if vim.lsp.get_clients then
    return vim.lsp.get_clients()
  end
  return vim.lsp.get_active_clients()
end

return M
