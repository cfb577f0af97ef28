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

-- Review of what a task changed (agent_lsp.review): quickfix list, signs, keep/reject.
local function review(fn, arg)
  return function()
    require("agent_lsp.review")[fn](arg)
  end
end
vim.api.nvim_create_user_command("AgentReview", review("open"), { nargs = 0, desc = "List the active task's unreviewed changes" })
vim.api.nvim_create_user_command("AgentReviewKeep", review("hunk", "keep"), { nargs = 0, desc = "Keep the change under the cursor" })
vim.api.nvim_create_user_command("AgentReviewReject", review("hunk", "reject"), { nargs = 0, desc = "Reject the change under the cursor" })
vim.api.nvim_create_user_command("AgentReviewKeepFile", review("file", "keep"), { nargs = 0, desc = "Keep every change of this file" })
vim.api.nvim_create_user_command("AgentReviewRejectFile", review("file", "reject"), { nargs = 0, desc = "Reject every change of this file" })
vim.api.nvim_create_user_command("AgentReviewKeepAll", review("all", "keep"), { nargs = 0, desc = "Keep every change of the task" })
vim.api.nvim_create_user_command("AgentReviewRejectAll", review("all", "reject"), { nargs = 0, desc = "Reject every change of the task" })
vim.api.nvim_create_user_command("AgentReviewUndo", review("undo"), { nargs = 0, desc = "Undo the last reject" })
