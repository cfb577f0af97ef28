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
import { ReviewDecorations } from "./review-decorations"
import { type ReviewNode, ReviewTree } from "./review-tree"

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
  const review = new ReviewView(lc, () => state.active)
  const changes = new ReviewTree(review, lc, () => state.active)
  changes.view = vscode.window.createTreeView(ReviewTree.viewId, { treeDataProvider: changes, showCollapseAll: true })
  context.subscriptions.push(
    changes.view,
    vscode.window.registerFileDecorationProvider(new ReviewDecorations()),
    vscode.workspace.registerTextDocumentContentProvider(ReviewView.scheme, {
      provideTextDocumentContent: (uri) => review.provide(uri),
      onDidChange: review.onDidChange,
    }),
  )
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
      // The Changes view lists again when the review changed or another task became the active one.
      void (params.update.kind === "review" ? changes.reload() : changes.follow())
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
  // A view item's command gets the item as its argument. After each command the Changes view follows
  // the active task (New Task and Show Tasks change it).
  const register = (id: string, run: (node?: ReviewNode) => Promise<unknown>) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (node?: ReviewNode) =>
        run(node).then(
          () => {
            status.text = state.label()
            void changes.follow()
          },
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
  register("agentLsp.reviewChanges", async () => {
    await vscode.commands.executeCommand(`${ReviewTree.viewId}.focus`)
    // Up to date first: a listing that ends while the pick is open may close a diff tab, and the pick with it.
    await changes.reload()
    await review.open()
    await changes.reload(true)
  })
  register("agentLsp.reviewOpenFile", (node) => changes.openFile(node))
  register("agentLsp.reviewRevealHunk", (node) => changes.revealHunk(node))
  register("agentLsp.reviewKeepFile", (node) => changes.decideNode(node, "keep"))
  register("agentLsp.reviewRejectFile", (node) => changes.decideNode(node, "reject"))
  register("agentLsp.reviewKeepChange", (node) => changes.decideNode(node, "keep"))
  register("agentLsp.reviewRejectChange", (node) => changes.decideNode(node, "reject"))
  register("agentLsp.reviewKeepAll", () => changes.keepAll())
  register("agentLsp.reviewRejectAll", () => changes.rejectAll())
  register("agentLsp.reviewUndoReject", () => changes.undoReject())
  register("agentLsp.reviewRefresh", () => changes.reload())

  await client.start()
  await changes.reload()
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
