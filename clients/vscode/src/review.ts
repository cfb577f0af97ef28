import * as vscode from "vscode"
import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
// Values from names only: the full protocol module would bundle zod into the extension.
import { AgentMethods } from "@agent-lsp/protocol/names"
import type { ClientLike } from "./vscode-api"

export type ReviewFile = ResultOf<"reviewChanges">["files"][number]
export type ReviewHunk = ReviewFile["hunks"][number]
export type ReviewDecision = ParamsOf<"reviewDecide">["decisions"][number]

/** "modified", "created by a command", … as the pick and the Changes view say it. */
export function statusText(file: ReviewFile): string {
  return `${file.status}${file.byCommand ? " by a command" : ""}`
}

/** "1 change", "3 changes". */
export function changesText(count: number): string {
  return `${count} change${count === 1 ? "" : "s"}`
}

/**
 * The review's VS Code side shared by the Changes view (review-tree.ts) and Agent: Review Changes: the
 * task's changed files (agent/reviewChanges), a file in VS Code's diff editor (baseline, the text before the
 * task, on the left; the file on the right, where the server's code lenses and code actions keep or reject
 * each hunk), and decisions (agent/reviewDecide) with their outcome told to the user.
 */
export class ReviewView {
  static readonly scheme = "agent-lsp-baseline"
  /** The left side of each diff opened (one URI per file, by its path) → the baseline text it shows. */
  private readonly baselines = new Map<string, string>()
  private readonly baselineChanged = new vscode.EventEmitter<vscode.Uri>()
  /** Fired when an open diff's baseline moved (a change kept): the content provider re-reads it. */
  readonly onDidChange = this.baselineChanged.event

  constructor(
    private readonly client: ClientLike,
    private readonly activeTask: () => string | undefined,
  ) {}

  /** The baseline text behind a diff editor's left side. */
  provide(uri: vscode.Uri): string {
    return this.baselines.get(uri.toString()) ?? ""
  }

  /** The active task's unreviewed files; none without a task. */
  async files(taskId = this.activeTask()): Promise<ReviewFile[]> {
    if (!taskId) return []
    return (await this.client.sendRequest<ResultOf<"reviewChanges">>(AgentMethods.reviewChanges, { taskId })).files
  }

  /**
   * Agent: Review Changes. A pick of the task's changed files (status, number of changes, made by a
   * command); the chosen file opens in the diff editor, and a second pick decides hunks or the file.
   */
  async open(): Promise<void> {
    const taskId = this.activeTask()
    if (!taskId) return void vscode.window.showInformationMessage("Agent: no task yet, so nothing to review.")
    const files = await this.files(taskId)
    if (files.length === 0) return void vscode.window.showInformationMessage("Agent: nothing left to review.")
    const picked = await vscode.window.showQuickPick(
      files.map((file) => ({
        label: vscode.workspace.asRelativePath(vscode.Uri.parse(file.uri)),
        description: `${statusText(file)}, ${changesText(file.hunks.length)}`,
        file,
      })),
      { placeHolder: `Changes of task ${taskId} to review` },
    )
    if (!picked) return
    await this.showDiff(picked.file)
    await this.pickDecision(taskId, picked.file)
  }

  /** Opens the file's diff editor (before the task ↔ now), with `hunk` selected on the right when given. */
  async showDiff(file: ReviewFile, hunk?: ReviewHunk): Promise<void> {
    const target = vscode.Uri.parse(file.uri)
    // One left URI per file: opening it again shows the same tab, its text brought up to date.
    const left = vscode.Uri.from({ scheme: ReviewView.scheme, path: target.path })
    this.baselines.set(left.toString(), await baselineOf(file))
    this.baselineChanged.fire(left)
    const right = file.status === "deleted" ? left.with({ query: "deleted" }) : target
    const title = `${vscode.workspace.asRelativePath(target)} (agent's changes)`
    const { start, end } = hunk?.range ?? { start: { line: 0 }, end: { line: 0 } }
    const options: vscode.TextDocumentShowOptions | undefined = hunk
      ? { selection: new vscode.Range(start.line, 0, Math.max(start.line, end.line - 1), 0), preview: true }
      : undefined
    await vscode.commands.executeCommand("vscode.diff", left, right, title, options)
  }

  /**
   * Brings the diffs opened here in line with the review as listed now: a file still listed gets its
   * baseline again (a kept change is no longer shown as one). With `closeDone` (right after the user's own
   * decision, never on an update from the server, which may come while a pick is open and would close it
   * with the tab) the diff tabs of a file with nothing left to review close: nothing is left to show in them.
   */
  async sync(files: ReviewFile[], closeDone: boolean): Promise<void> {
    const listed = new Map(files.map((f) => [vscode.Uri.parse(f.uri).path, f]))
    for (const key of [...this.baselines.keys()]) {
      const left = vscode.Uri.parse(key)
      const file = listed.get(left.path)
      if (file) {
        this.baselines.set(key, await baselineOf(file))
        this.baselineChanged.fire(left)
        continue
      }
      if (!closeDone) continue
      this.baselines.delete(key)
      const tabs = vscode.window.tabGroups.all.flatMap((g) =>
        g.tabs.filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.original.toString() === key),
      )
      if (tabs.length > 0) await vscode.window.tabGroups.close(tabs)
    }
  }

  /**
   * Sends the decisions (agent/reviewDecide) for the active task, or `taskId`, and tells the outcome: what
   * was kept and rejected, and anything not done with the server's reason (a warning then).
   */
  async decide(decisions: ReviewDecision[], taskId = this.activeTask()): Promise<void> {
    if (!taskId) return void vscode.window.showInformationMessage("Agent: no task yet, so nothing to review.")
    const params: ParamsOf<"reviewDecide"> = { taskId, decisions }
    const result = await this.client.sendRequest<ResultOf<"reviewDecide">>(AgentMethods.reviewDecide, params)
    const failed = result.failed.map((f) => f.reason).join("; ")
    const dropped = (result.droppedUserEdits ?? []).map(
      (u) => `; your typing in ${vscode.workspace.asRelativePath(vscode.Uri.parse(u))} went too`,
    )
    const message = `Agent: kept ${result.kept}, rejected ${result.rejected}${dropped.join("")}${failed ? `; not done: ${failed}` : ""}`
    void (failed ? vscode.window.showWarningMessage(message) : vscode.window.showInformationMessage(message))
  }

  /** The keyboard's way: a pick of keep/reject for each hunk of the file, or the whole file. */
  private async pickDecision(taskId: string, file: ReviewFile): Promise<void> {
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
    if (picked) await this.decide([picked.decision], taskId)
  }
}

/** The file's text before the task: its text now with every hunk's old lines put back (bottom up). */
async function baselineOf(file: ReviewFile): Promise<string> {
  const current = file.status === "deleted" ? "" : (await vscode.workspace.openTextDocument(vscode.Uri.parse(file.uri))).getText()
  const lines = current.split(/(?<=\n)/)
  for (const h of [...file.hunks].reverse()) {
    const newCount = h.newText === "" ? 0 : h.newText.split(/(?<=\n)/).length
    lines.splice(h.range.start.line, newCount, ...(h.oldText === "" ? [] : h.oldText.split(/(?<=\n)/)))
  }
  return lines.join("")
}
