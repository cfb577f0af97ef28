-- Turns agent/taskUpdate `update`s into markdown text for the transcript buffer. Pure: no buffers,
-- no LSP; each call returns the text to append (which may continue the last line, for streamed text).
local M = {}

local check = { pending = "[ ]", in_progress = "[-]", completed = "[x]" }
local status_word = {
  awaitingApproval = "awaiting approval",
  running = "running",
  done = "done",
  error = "failed",
  denied = "denied",
  skipped = "skipped",
}

-- The parameter that says most about a call, so a line reads "read_file src/a.ts".
local key_params = { "path", "command", "regex", "query", "mode", "mode_slug", "question", "server_name", "uri" }

local function one_line(s, max)
  s = tostring(s):gsub("%s+", " ")
  if #s > max then
    s = s:sub(1, max - 1) .. "…"
  end
  return s
end

function M.params_summary(params)
  if type(params) ~= "table" then
    return ""
  end
  for _, k in ipairs(key_params) do
    if type(params[k]) == "string" and params[k] ~= "" then
      return one_line(params[k], 80)
    end
  end
  local ok, json = pcall(vim.json.encode, params)
  if not ok or json == "{}" or json == "[]" then
    return ""
  end
  return one_line(json, 80)
end

--- A renderer with its own state (whether the text ends mid-line, which command output block is open,
--- which status each call last showed). One per task.
function M.new()
  -- turn_ended: a model reply finished (its usage came); the next reply's text starts a new paragraph
  -- instead of continuing the last line ("done" + "done" would read "donedone").
  local self = { at_line_start = true, after_text = false, open_output = nil, call_status = {}, turn_ended = false }

  -- Starts a block on its own line, with a blank line after streamed assistant text.
  local function block(lines)
    local prefix = ""
    if self.open_output then
      prefix = (self.at_line_start and "" or "\n") .. "```\n"
      self.open_output = nil
      self.at_line_start = true
    end
    if not self.at_line_start then
      prefix = prefix .. "\n"
    end
    if self.after_text then
      prefix = prefix .. "\n"
    end
    self.after_text = false
    self.at_line_start = true
    return prefix .. table.concat(lines, "\n") .. "\n"
  end

  function self.header(title)
    return block({ "# " .. one_line(title, 120), "" })
  end

  function self.user(text)
    local lines = { "" }
    for line in (text .. "\n"):gmatch("(.-)\n") do
      table.insert(lines, "> " .. line)
    end
    table.insert(lines, "")
    return block(lines)
  end

  function self.update(u)
    local kind = u.kind
    if kind == "text" then
      local prefix = ""
      if self.open_output then
        prefix = block({})
      end
      if not self.after_text and prefix == "" and not self.at_line_start then
        prefix = "\n"
      end
      if self.turn_ended and self.after_text and u.delta ~= "" then
        prefix = (self.at_line_start and "\n" or "\n\n")
      end
      if u.delta ~= "" then
        self.turn_ended = false
      end
      self.after_text = true
      if u.delta ~= "" then
        self.at_line_start = u.delta:sub(-1) == "\n"
      end
      return prefix .. u.delta
    elseif kind == "toolCall" then
      -- Streaming partial params would print a line per token. A call is shown once when it settles
      -- (awaiting approval or running); later only a refusal or failure is worth a line, since the
      -- result line (✓/✗) follows anyway.
      local seen = self.call_status[u.callId]
      if u.status == "streaming" or seen == u.status then
        return ""
      end
      if seen and u.status ~= "denied" and u.status ~= "skipped" and u.status ~= "error" then
        self.call_status[u.callId] = u.status
        return ""
      end
      self.call_status[u.callId] = u.status
      local summary = u.tool ~= "attempt_completion" and M.params_summary(u.params) or ""
      local line = "- **" .. u.tool .. "**" .. (summary ~= "" and (" `" .. summary .. "`") or "")
      return block({ line .. " — " .. (status_word[u.status] or u.status) })
    elseif kind == "toolResult" then
      local mark = u.isError and "✗" or "✓"
      local lines = {}
      local first = true
      for line in (u.summary .. "\n"):gmatch("(.-)\n") do
        table.insert(lines, (first and ("  " .. mark .. " ") or "    ") .. line)
        first = false
      end
      return block(lines)
    elseif kind == "commandOutput" then
      local prefix = ""
      if self.open_output ~= u.callId then
        prefix = block({ "```" })
        self.open_output = u.callId
      end
      if u.chunk ~= "" then
        self.at_line_start = u.chunk:sub(-1) == "\n"
      end
      return prefix .. u.chunk
    elseif kind == "todos" then
      local lines = { "**Todos**" }
      for _, todo in ipairs(u.todos or {}) do
        table.insert(lines, "- " .. (check[todo.status] or "[ ]") .. " " .. todo.text)
      end
      return block(lines)
    elseif kind == "mode" then
      return block({ "_mode: " .. u.mode .. "_" })
    elseif kind == "permissionMode" then
      local loud = u.mode == "bypassPermissions" and " (nothing but deny lists and protected paths asks)" or ""
      return block({ "_permission mode: " .. u.mode .. loud .. "_" })
    elseif kind == "status" then
      -- "running" is the normal case and "completed" has its own block.
      if u.status == "running" or u.status == "completed" then
        return ""
      end
      return block({ "_status: " .. u.status .. (u.message and (" — " .. one_line(u.message, 200)) or "") .. "_" })
    elseif kind == "subtask" then
      return block({ "_subtask started: " .. u.childTaskId .. "_" })
    elseif kind == "checkpoint" then
      return block({ "_checkpoint " .. u.checkpointId .. ": " .. u.label .. "_" })
    elseif kind == "completed" then
      local lines = { "", "## Completed", "" }
      for line in (u.result .. "\n"):gmatch("(.-)\n") do
        table.insert(lines, line)
      end
      return block(lines)
    elseif kind == "error" then
      return block({ "**Error:** " .. u.message })
    elseif kind == "usage" then
      -- Not shown (it goes to the statusline state), but it marks the end of one model reply.
      self.turn_ended = true
      return ""
    end
    -- reasoning is not shown in the transcript.
    return ""
  end

  return self
end

return M
