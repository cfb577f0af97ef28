-- agent/saveDocuments: writes the buffers the agent edited, but never one that holds changes the user
-- made (before the agent's edit, or typed since): those are left unsaved and the user is asked.
local M = {}

-- buffer number → { dirty_before = bool, tick = changedtick right after the agent's edit }
local edited = {}

local function uris_of(edit)
  local uris = {}
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument then
      table.insert(uris, change.textDocument.uri)
    elseif change.kind == "create" then
      table.insert(uris, change.uri)
    end
  end
  for uri in pairs(edit.changes or {}) do
    table.insert(uris, uri)
  end
  return uris
end

--- Wraps a workspace/applyEdit handler to remember, per buffer, whether the user had unsaved changes
--- before the agent's edit and the changedtick the edit left.
function M.wrap_apply_edit(default)
  return function(err, params, ctx, cfg)
    local before = {}
    for _, uri in ipairs(uris_of((params and params.edit) or {})) do
      local buf = vim.fn.bufnr(vim.uri_to_fname(uri))
      if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
        before[uri] = { dirty = vim.api.nvim_buf_get_option(buf, "modified"), tick = vim.api.nvim_buf_get_changedtick(buf) }
      else
        before[uri] = { dirty = false }
      end
    end
    local result = default(err, params, ctx, cfg)
    for uri, b in pairs(before) do
      local buf = vim.uri_to_bufnr(uri)
      if vim.api.nvim_buf_is_loaded(buf) then
        local prev = edited[buf]
        -- A second agent edit before a save: dirty if the user had changes before the first one or typed since.
        local dirty_before = b.dirty
        if prev then
          dirty_before = prev.dirty_before or prev.tick ~= b.tick
        end
        edited[buf] = { dirty_before = dirty_before, tick = vim.api.nvim_buf_get_changedtick(buf) }
      end
    end
    return result
  end
end

-- Writes without BufWritePre (a format-on-save hook would change the agent's text after the server
-- checked it) and without the BufLeave/BufEnter storm of switching buffers (nvim_buf_call), then runs
-- BufWritePost for this buffer only so LSP clients still send didSave.
local function write(buf)
  local ok, err = pcall(vim.api.nvim_buf_call, buf, function()
    vim.cmd("silent noautocmd keepalt keepjumps write!")
  end)
  if ok then
    pcall(vim.api.nvim_exec_autocmds, "BufWritePost", { buffer = buf, modeline = false })
  end
  return ok, err
end

--- Whether the buffer holds only the agent's edit on top of what is on disk.
function M.only_agent_changes(buf)
  local info = edited[buf]
  if not info then
    return false
  end
  return not info.dirty_before and info.tick == vim.api.nvim_buf_get_changedtick(buf)
end

local function ask_then_write(buf, name)
  vim.ui.select({ "Save", "Keep unsaved" }, {
    prompt = "agent_lsp: " .. name .. " also has changes of yours that are not saved. Save it with the agent's edit?",
  }, function(choice)
    if choice == "Save" and vim.api.nvim_buf_is_valid(buf) then
      write(buf)
    end
  end)
end

--- The agent/saveDocuments handler: returns { saved = uris written (or already clean) }.
function M.handler(_, params)
  local saved = {}
  for _, uri in ipairs((params and params.uris) or {}) do
    local buf = vim.fn.bufnr(vim.uri_to_fname(uri))
    if buf ~= -1 and vim.api.nvim_buf_is_loaded(buf) then
      if not vim.api.nvim_buf_get_option(buf, "modified") then
        table.insert(saved, uri)
      elseif M.only_agent_changes(buf) then
        if write(buf) then
          edited[buf] = nil
          table.insert(saved, uri)
        end
      else
        -- Answered now (Neovim 0.7 must answer at once); the user decides later.
        local name = vim.fn.fnamemodify(vim.uri_to_fname(uri), ":~:.")
        vim.schedule(function()
          ask_then_write(buf, name)
        end)
      end
    end
  end
  return { saved = saved }
end

return M
