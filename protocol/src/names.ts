/**
 * Every agent/* method and agent.* command name of the wire contract (protocol/PROTOCOL.md is generated from protocol/src).
 * Names are data: clients, the server, the generated JSON and the Neovim methods file all read them from here.
 */
export const AgentMethods = {
  // client → server requests
  newTask: "agent/newTask",
  sendMessage: "agent/sendMessage",
  cancelTask: "agent/cancelTask",
  resumeTask: "agent/resumeTask",
  respond: "agent/respond",
  listTasks: "agent/listTasks",
  getTask: "agent/getTask",
  listModes: "agent/listModes",
  setMode: "agent/setMode",
  // extensions beyond the seed contract (documented in the README)
  listMcpServers: "agent/listMcpServers",
  listCheckpoints: "agent/listCheckpoints",
  diffCheckpoint: "agent/diffCheckpoint",
  restoreCheckpoint: "agent/restoreCheckpoint",
  indexStatus: "agent/indexStatus",
  listSkills: "agent/listSkills",
  listCommands: "agent/listCommands",
  setPermissionMode: "agent/setPermissionMode",
  reviewChanges: "agent/reviewChanges",
  reviewDecide: "agent/reviewDecide",
  // server → client notifications
  taskUpdate: "agent/taskUpdate",
  // server → client requests (only when declared in capabilities.experimental.agent)
  requestApproval: "agent/requestApproval",
  askFollowup: "agent/askFollowup",
  saveDocuments: "agent/saveDocuments",
  /** Declared as capabilities.experimental.agentDiagnostics (PROTOCOL.md): the editor's own diagnostics. */
  diagnostics: "agent/diagnostics",
  /** Declared as capabilities.experimental.agent.languageFeature: the editor's language servers answer the lsp tool. */
  languageFeature: "agent/languageFeature",
} as const

export type AgentMethodKey = keyof typeof AgentMethods
export type AgentMethod = (typeof AgentMethods)[AgentMethodKey]

/** workspace/executeCommand ids, advertised in executeCommandProvider.commands. */
export const AgentCommands = {
  newTask: "agent.newTask",
  sendMessage: "agent.sendMessage",
  cancelTask: "agent.cancelTask",
  resumeTask: "agent.resumeTask",
  setMode: "agent.setMode",
  listTasks: "agent.listTasks",
  respond: "agent.respond",
  showTranscript: "agent.showTranscript",
  listMcpServers: "agent.listMcpServers",
  listCheckpoints: "agent.listCheckpoints",
  diffCheckpoint: "agent.diffCheckpoint",
  restoreCheckpoint: "agent.restoreCheckpoint",
  rebuildIndex: "agent.rebuildIndex",
  setPermissionMode: "agent.setPermissionMode",
  reviewKeep: "agent.review.keep",
  reviewReject: "agent.review.reject",
  reviewKeepAll: "agent.review.keepAll",
  reviewRejectAll: "agent.review.rejectAll",
  reviewUndoReject: "agent.review.undoReject",
  reviewOpen: "agent.review.open",
} as const

export type AgentCommand = (typeof AgentCommands)[keyof typeof AgentCommands]

/** Keys of capabilities.experimental.agent a client may declare. */
export const AgentClientCapabilityKeys = [
  "requestApproval",
  "askFollowup",
  "saveDocuments",
  "taskUpdates",
  "deferredAnswers",
  "languageFeature",
] as const

/** Arguments and effect of each agent.* command (protocol/PROTOCOL.md is generated from these). */
export const AgentCommandDocs: Record<keyof typeof AgentCommands, { arguments: string; effect: string }> = {
  newTask: {
    arguments: "[text, {mode?, uri?, range?}?]",
    effect:
      "Starts a task and returns {taskId}; announced with window/showMessage (naming the transcript file where the editor cannot be asked to show it).",
  },
  sendMessage: { arguments: "[text, taskId?]", effect: "Answers the task's question or continues a finished task." },
  cancelTask: { arguments: "[taskId?]", effect: "Cancels the task." },
  resumeTask: { arguments: "[taskId?]", effect: "Resumes an interrupted or cancelled task." },
  setMode: { arguments: "[mode, taskId?]", effect: "Switches a task's mode; without taskId, sets the mode of the next task." },
  listTasks: { arguments: "[]", effect: "Returns what agent/listTasks returns." },
  respond: {
    arguments: "[requestId, optionIdOrAnswer, feedback?]",
    effect: "Answers a pending approval (an option id) or question (the answer text).",
  },
  showTranscript: {
    arguments: "[taskId?]",
    effect:
      "Shows the task's transcript document (window/showDocument) or, where the editor did not declare it, puts its path in a window/showMessage; returns {uri, path}.",
  },
  listMcpServers: { arguments: "[]", effect: "Returns what agent/listMcpServers returns." },
  listCheckpoints: { arguments: "[taskId?]", effect: "Returns what agent/listCheckpoints returns." },
  diffCheckpoint: { arguments: "[id, toId?]", effect: "Returns what agent/diffCheckpoint returns." },
  restoreCheckpoint: { arguments: "[id, rewindConversation?]", effect: "Returns what agent/restoreCheckpoint returns." },
  setPermissionMode: {
    arguments: "[mode, taskId?]",
    effect:
      "Sets a task's permission mode (default, acceptEdits, plan, auto, dontAsk, bypassPermissions); without taskId, that of new tasks; returns {mode}.",
  },
  rebuildIndex: {
    arguments: "[]",
    effect: "Starts rebuilding the codebase index; progress follows as $/progress and agent/indexStatus tells where it is.",
  },
  reviewKeep: {
    arguments: "[{hunkId?, uri?}, taskId?]",
    effect:
      "Keeps one unreviewed hunk (hunkId) or every hunk of a file (uri) of the task's review; returns what agent/reviewDecide returns.",
  },
  reviewReject: {
    arguments: "[{hunkId?, uri?}, taskId?]",
    effect:
      "Rejects one hunk or a whole file: the text before the agent's change is written back (version-checked, then saved); returns what agent/reviewDecide returns.",
  },
  reviewKeepAll: { arguments: "[taskId?]", effect: "Keeps every unreviewed change of the task." },
  reviewRejectAll: { arguments: "[taskId?]", effect: "Rejects every unreviewed change of the task (the last reject can be undone)." },
  reviewUndoReject: {
    arguments: "[taskId?]",
    effect: "Writes back what the task's last reject removed (refused for a file changed since); returns {restored: uri[]}.",
  },
  reviewOpen: {
    arguments: "[taskId?]",
    effect:
      "Writes the task's unreviewed changes as one unified diff and shows it (window/showDocument) or, where the editor cannot be asked to, names its path; returns {uri, path}.",
  },
}

/** What each capabilities.experimental.agent key promises the server. */
export const AgentCapabilityDocs: Record<(typeof AgentClientCapabilityKeys)[number], string> = {
  requestApproval:
    "The client answers agent/requestApproval (else approvals go through window/showMessageRequest, then a window/showMessage naming agent.respond).",
  askFollowup: "The client answers agent/askFollowup.",
  saveDocuments:
    "The client saves buffers on agent/saveDocuments (else the server writes the file atomically, never behind unsaved user changes).",
  taskUpdates: "The client shows agent/taskUpdate (else the server keeps a markdown transcript document per task).",
  deferredAnswers: "The client may answer {deferred: true} at once and agent/respond later.",
  languageFeature:
    "The client answers agent/languageFeature from its own language servers (else the lsp and rename_symbol tools use the servers of agent.languageServers).",
}
