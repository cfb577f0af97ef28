/**
 * Every agent/* method and agent.* command name of the wire contract (shared/PROTOCOL.md).
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
  // server → client notifications
  taskUpdate: "agent/taskUpdate",
  // server → client requests (only when declared in capabilities.experimental.agent)
  requestApproval: "agent/requestApproval",
  askFollowup: "agent/askFollowup",
  saveDocuments: "agent/saveDocuments",
  /** Declared as capabilities.experimental.agentDiagnostics (PROTOCOL.md): the editor's own diagnostics. */
  diagnostics: "agent/diagnostics",
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
} as const

export type AgentCommand = (typeof AgentCommands)[keyof typeof AgentCommands]

/** Keys of capabilities.experimental.agent a client may declare. */
export const AgentClientCapabilityKeys = [
  "requestApproval",
  "askFollowup",
  "saveDocuments",
  "taskUpdates",
  "deferredAnswers",
] as const
