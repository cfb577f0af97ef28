import * as vscode from "vscode"
import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
// Values from names only: the full protocol module would bundle zod into the extension.
import { AgentMethods } from "@agent-lsp/protocol/names"
import type { ClientLike } from "./vscode-api"

type ReviewFile = ResultOf<"reviewChanges">["files"][number]

/**
 * Agent: Review Changes. A pick of the task's changed files (status, number of changes, made by a command);
 * the chosen file opens in VS Code's diff editor, baseline (before the task) on the left, the file on the
 * right, where the server's code lenses and code actions keep or reject each hunk. A second pick decides
 * hunks or the file from the keyboard.
 */
export class ReviewView {
  static readonly scheme = "agent-lsp-baseline"
  private readonly baselines = new Map<string, string>()

  constructor(
    private readonly client: ClientLike,
    private readonly activeTask: () => string | undefined,
  ) {}

  /** The baseline text behind a diff editor's left side. */
  provide(uri: vscode.Uri): string {
    return this.baselines.get(uri.toString()) ?? ""
  }

  async open(): Promise<void> {
    const taskId = this.activeTask()
    if (!taskId) return void vscode.window.showInformationMessage("Agent: no task yet, so nothing to review.")
    const { files } = await this.client.sendRequest<ResultOf<"reviewChanges">>(AgentMethods.reviewChanges, { taskId })
    if (files.length === 0) return void vscode.window.showInformationMessage("Agent: nothing left to review.")
    const picked = await vscode.window.showQuickPick(
      files.map((file) => ({
        label: vscode.workspace.asRelativePath(vscode.Uri.parse(file.uri)),
        description: `${file.status}${file.byCommand ? " by a command" : ""}, ${file.hunks.length} change(s)`,
        file,
      })),
      { placeHolder: `Changes of task ${taskId} to review` },
    )
    if (!picked) return
    await this.showDiff(picked.file)
    await this.decide(taskId, picked.file)
  }

  private async showDiff(file: ReviewFile): Promise<void> {
    const target = vscode.Uri.parse(file.uri)
    const current = file.status === "deleted" ? "" : (await vscode.workspace.openTextDocument(target)).getText()
    const lines = current.split(/(?<=\n)/)
    // The baseline is the text now with every hunk's old lines put back (bottom up).
    for (const hunk of [...file.hunks].reverse()) {
      const newCount = hunk.newText === "" ? 0 : hunk.newText.split(/(?<=\n)/).length
      lines.splice(hunk.range.start.line, newCount, ...(hunk.oldText === "" ? [] : hunk.oldText.split(/(?<=\n)/)))
    }
    const left = vscode.Uri.from({ scheme: ReviewView.scheme, path: target.path, query: String(Date.now()) })
    this.baselines.set(left.toString(), lines.join(""))
    const right = file.status === "deleted" ? left.with({ query: "deleted" }) : target
    await vscode.commands.executeCommand("vscode.diff", left, right, `${vscode.workspace.asRelativePath(target)} (agent's changes)`)
  }

  private async decide(taskId: string, file: ReviewFile): Promise<void> {
    const items = [
      ...file.hunks.flatMap((h) => {
        const where = `line ${h.range.start.line + 1}${h.userEdited ? " (with your typing)" : ""}`
        return [
          { label: `Keep change at ${where}`, decision: { hunkId: h.hunkId, action: "keep" as const } },
          { label: `Reject change at ${where}`, decision: { hunkId: h.hunkId, action: "reject" as const } },
        ]
      }),
      { label: "Keep file", decision: { uri: file.uri, action: "keep" as const } },
      { label: "Reject file", decision: { uri: file.uri, action: "reject" as const } },
    ]
    const picked = await vscode.window.showQuickPick(items, { placeHolder: "Keep or reject (the code lenses in the diff do the same)" })
    if (!picked) return
    const params: ParamsOf<"reviewDecide"> = { taskId, decisions: [picked.decision] }
    const result = await this.client.sendRequest<ResultOf<"reviewDecide">>(AgentMethods.reviewDecide, params)
    const failed = result.failed.map((f) => f.reason).join("; ")
    const message = `Agent: kept ${result.kept}, rejected ${result.rejected}${failed ? `; not done: ${failed}` : ""}`
    void (failed ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message))
  }
}
