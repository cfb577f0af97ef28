import type { ClientCapabilities, InitializeParams } from "vscode-languageserver/node"

/** What the connected client can do; the one place the rest of the server asks. */
export interface ClientFeatures {
  clientName: string
  applyEdit: boolean
  /** Versioned TextDocumentEdits (documentChanges) rather than a plain `changes` map. */
  documentChanges: boolean
  createFiles: boolean
  showDocument: boolean
  workDoneProgress: boolean
  configuration: boolean
  didChangeConfigurationDynamic: boolean
  workspaceFolders: boolean
  didChangeWatchedFilesDynamic: boolean
  /** capabilities.experimental.agent: the agent/* requests the client handles. */
  agent: {
    requestApproval: boolean
    askFollowup: boolean
    saveDocuments: boolean
    taskUpdates: boolean
    deferredAnswers: boolean
    /** The client answers agent/languageFeature from its own language servers (the lsp tool, renames). */
    languageFeature: boolean
  }
  /** capabilities.experimental.agentDiagnostics: the client answers agent/diagnostics with its own diagnostics. */
  agentDiagnostics: boolean
}

export function clientFeaturesFrom(params: Pick<InitializeParams, "capabilities" | "clientInfo">): ClientFeatures {
  const caps: ClientCapabilities = params.capabilities ?? {}
  const experimental = (caps.experimental ?? {}) as { agent?: Record<string, unknown>; agentDiagnostics?: unknown }
  const agent = experimental.agent ?? {}
  const flag = (key: string) => agent[key] === true
  return {
    clientName: params.clientInfo?.name ?? "unknown",
    applyEdit: caps.workspace?.applyEdit === true,
    documentChanges: caps.workspace?.workspaceEdit?.documentChanges === true,
    createFiles: caps.workspace?.workspaceEdit?.resourceOperations?.includes("create") === true,
    showDocument: caps.window?.showDocument?.support === true,
    workDoneProgress: caps.window?.workDoneProgress === true,
    configuration: caps.workspace?.configuration === true,
    didChangeConfigurationDynamic: caps.workspace?.didChangeConfiguration?.dynamicRegistration === true,
    workspaceFolders: caps.workspace?.workspaceFolders === true,
    didChangeWatchedFilesDynamic: caps.workspace?.didChangeWatchedFiles?.dynamicRegistration === true,
    agent: {
      requestApproval: flag("requestApproval"),
      askFollowup: flag("askFollowup"),
      saveDocuments: flag("saveDocuments"),
      taskUpdates: flag("taskUpdates"),
      deferredAnswers: flag("deferredAnswers"),
      languageFeature: flag("languageFeature"),
    },
    // PROTOCOL.md names it experimental.agentDiagnostics; experimental.agent.diagnostics is accepted too.
    agentDiagnostics: experimental.agentDiagnostics === true || flag("diagnostics"),
  }
}
