-- User commands of agent_lsp. They load the plugin on first use; the client itself starts in
-- require("agent_lsp").setup().
if vim.g.loaded_agent_lsp then
  return
end
vim.g.loaded_agent_lsp = true

local function cmd(name)
  return function(opts)
    require("agent_lsp.commands")[name](opts)
  end
end

local function complete_slash(arglead, cmdline)
  return require("agent_lsp.completion").slash_commands(arglead, cmdline)
end

vim.api.nvim_create_user_command("AgentTask", cmd("task"), {
  nargs = "+",
  range = true,
  complete = complete_slash,
  desc = "Start an agent task (a visual range goes along as context)",
})
vim.api.nvim_create_user_command("AgentSend", cmd("send"), {
  nargs = "+",
  complete = complete_slash,
  desc = "Answer or continue the active agent task",
})
vim.api.nvim_create_user_command("AgentCancel", cmd("cancel"), { nargs = 0, desc = "Cancel the active agent task" })
vim.api.nvim_create_user_command("AgentMode", cmd("mode"), {
  nargs = 1,
  complete = function(arglead)
    return require("agent_lsp.commands").complete_mode(arglead)
  end,
  desc = "Switch the agent's mode",
})
vim.api.nvim_create_user_command("AgentPermissions", cmd("permissions"), {
  nargs = "?",
  complete = function(arglead)
    return require("agent_lsp.commands").complete_permissions(arglead)
  end,
  desc = "Set the agent's permission mode (default, acceptEdits, plan, auto, dontAsk, bypassPermissions)",
})
vim.api.nvim_create_user_command("AgentTasks", cmd("tasks"), { nargs = 0, desc = "Pick an agent task to view or resume" })
vim.api.nvim_create_user_command("AgentTranscript", cmd("show_transcript"), { nargs = 0, desc = "Show the active task's transcript" })
