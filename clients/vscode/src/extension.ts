import { existsSync } from "node:fs"
import { join } from "node:path"
import * as vscode from "vscode"
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from "vscode-languageclient/node"
import type { ParamsOf } from "@agent-lsp/protocol"
import { AgentMethods } from "@agent-lsp/protocol/names"
import { askFollowup, ProposedTexts, requestApproval } from "./approvals"
import { AgentCommands, type SelectionContext } from "./commands"
import { SETTING_KEYS } from "./setting-keys"
import { editorDiagnostics } from "./diagnostics"
import { languageFeature } from "./language-feature"
import { saveDocuments } from "./save-documents"
import { explicitSettings, fillAgentCapabilities, initializationSettings, serverLaunch, settingLeaves, vscodeRipgrep } from "./startup"
import { TaskState } from "./task-state"
import { OutputTranscript } from "./transcript"
import { ReviewView } from "./review"

let client: LanguageClient | undefined

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("agent")
  const serverPath = config.inspect<string>("client.serverPath")?.globalValue || context.asAbsolutePath(join("server", "agent-lsp.mjs"))
  const launch = serverLaunch(serverPath)
  const serverOptions: ServerOptions =
    launch.kind === "module"
      ? { module: launch.module, transport: TransportKind.stdio }
      : { command: launch.command, args: launch.args, transport: undefined }
  const leaves = settingLeaves(context.extension.packageJSON)
  const channel = vscode.window.createOutputChannel("Agent")
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ scheme: "file" }, { scheme: "untitled" }],
    // No synchronize.configurationSection: it would push every default in didChangeConfiguration. The
    // server pulls workspace/configuration instead, answered below with explicitly set values only.
    middleware: {
      workspace: {
        configuration: async (params, token, next) => {
          const answer = await next(params, token)
          if (!Array.isArray(answer)) return answer
          const agentConfig = vscode.workspace.getConfiguration("agent")
          return params.items.map((item, i) =>
            item.section === "agent" ? explicitSettings(leaves, (key) => agentConfig.inspect(key)) : answer[i],
          )
        },
      },
    },
    initializationOptions: {
      agent: initializationSettings(SETTING_KEYS, (key) => config.inspect(key), vscodeRipgrep(vscode.env.appRoot, existsSync)),
    },
    outputChannelName: "Agent (server log)",
  }
  client = new LanguageClient("agentLsp", "agent-lsp", serverOptions, clientOptions)
  client.registerFeature({
    fillClientCapabilities: fillAgentCapabilities,
    initialize() {},
    getState: () => ({ kind: "static" }),
    clear() {},
  })

  const state = new TaskState()
  const transcript = new OutputTranscript(channel)
  const proposed = new ProposedTexts()
  const status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left)
  status.command = "agentLsp.showTasks"
  status.text = state.label()
  status.show()
  // The permission mode, always visible (loudly while bypassPermissions is on); a click picks another.
  const permission = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left)
  permission.command = "agentLsp.setPermissionMode"
  const showPermission = (mode: string) => {
    const bypass = mode === "bypassPermissions"
    permission.text = bypass ? "$(warning) agent: BYPASS permissions" : `$(shield) agent: ${mode}`
    permission.tooltip = "Agent permission mode (click to change)"
    permission.backgroundColor = bypass ? new vscode.ThemeColor("statusBarItem.errorBackground") : undefined
  }
  showPermission("default")
  permission.show()

  const lc = client
  context.subscriptions.push(
    channel,
    status,
    permission,
    vscode.workspace.registerTextDocumentContentProvider(ProposedTexts.scheme, { provideTextDocumentContent: (uri) => proposed.get(uri) }),
    lc.onNotification(AgentMethods.taskUpdate, (params: ParamsOf<"taskUpdate">) => {
      state.apply(params.taskId, params.update)
      if (params.update.kind === "permissionMode") showPermission(params.update.mode)
      transcript.update(params.taskId, params.update)
      status.text = state.label()
    }),
    lc.onRequest(AgentMethods.requestApproval, (params: ParamsOf<"requestApproval">) => requestApproval(vscode, proposed, params)),
    lc.onRequest(AgentMethods.askFollowup, (params: ParamsOf<"askFollowup">) => askFollowup(vscode, state, params)),
    lc.onRequest(AgentMethods.saveDocuments, (params: ParamsOf<"saveDocuments">) => saveDocuments(vscode, params)),
    lc.onRequest(AgentMethods.diagnostics, (params: ParamsOf<"diagnostics">) => editorDiagnostics(vscode, params)),
    lc.onRequest(AgentMethods.languageFeature, (params: ParamsOf<"languageFeature">) => languageFeature(vscode, params)),
  )

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      // settings: null makes the server pull workspace/configuration (the middleware's answer).
      if (event.affectsConfiguration("agent")) void lc.sendNotification("workspace/didChangeConfiguration", { settings: null })
    }),
  )

  const commands = new AgentCommands(vscode, lc, state, transcript)
  const register = (id: string, run: () => Promise<unknown>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, () =>
        run().then(
          () => (status.text = state.label()),
          () => undefined,
        ),
      ),
    )
  register("agentLsp.newTask", () => commands.newTask(currentSelection()))
  register("agentLsp.sendMessage", () => commands.sendMessage())
  register("agentLsp.cancelTask", () => commands.cancelTask())
  register("agentLsp.setMode", () => commands.setMode())
  register("agentLsp.setPermissionMode", async () => {
    const mode = await commands.setPermissionMode()
    if (mode) showPermission(mode)
  })
  register("agentLsp.showTasks", () => commands.showTasks())
  register("agentLsp.showTranscript", async () => channel.show())
  const review = new ReviewView(lc, () => state.active)
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(ReviewView.scheme, { provideTextDocumentContent: (uri) => review.provide(uri) }),
  )
  register("agentLsp.reviewChanges", () => review.open())

  await client.start()
}

export async function deactivate(): Promise<void> {
  await client?.stop()
  client = undefined
}

function currentSelection(): SelectionContext | undefined {
  const editor = vscode.window.activeTextEditor
  if (!editor || editor.selection.isEmpty) return undefined
  const { start, end } = editor.selection
  return {
    uri: editor.document.uri.toString(),
    range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
  }
}
