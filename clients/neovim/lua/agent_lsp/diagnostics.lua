-- agent/diagnostics: Neovim's own diagnostics (vim.diagnostic, from every attached language server) for
-- the files the agent just edited, so the model hears about the problems its edit introduced.
local M = {}

local function to_lsp(d)
  local item = {
    range = {
      start = { line = d.lnum, character = d.col },
      ["end"] = { line = d.end_lnum or d.lnum, character = d.end_col or d.col },
    },
    -- vim.diagnostic.severity counts like LSP: 1 error … 4 hint.
    severity = d.severity,
    message = d.message,
    source = d.source,
  }
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code)
  if type(code) == "string" or type(code) == "number" then
    item.code = code
  end
  return item
end

--- Answers with the diagnostics of each URI's buffer (none for a file no buffer has loaded).
function M.handler(_, params)
  local result = {}
  for _, uri in ipairs((params and params.uris) or {}) do
    local items = {}
    local ok, fname = pcall(vim.uri_to_fname, uri)
    local bufnr = ok and vim.fn.bufnr(fname) or -1
    if bufnr ~= -1 and vim.api.nvim_buf_is_loaded(bufnr) then
      for _, d in ipairs(vim.diagnostic.get(bufnr)) do
        table.insert(items, to_lsp(d))
      end
    end
    table.insert(result, { uri = uri, items = items })
  end
  return { diagnostics = result }
end

return M
