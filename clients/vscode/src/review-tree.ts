import * as vscode from "vscode"
import { AgentCommands } from "@agent-lsp/protocol/names"
import { reviewItemUri } from "./review-decorations"
import { changesText, type ReviewDecision, type ReviewFile, type ReviewHunk, type ReviewView, statusText } from "./review"
import type { ClientLike } from "./vscode-api"

/** A row of the Changes view: a changed file, or one of its hunks under it. */
export type ReviewNode = { kind: "file"; file: ReviewFile } | { kind: "hunk"; file: ReviewFile; hunk: ReviewHunk }

/** Context keys the manifest's viewsWelcome and menus read. */
const HAS_TASK = "agentLsp.reviewHasTask"
const HAS_CHANGES = "agentLsp.reviewHasChanges"

/**
 * The "Agent: Changes" view (Explorer): the active task's unreviewed files, each with its status letter,
 * its number of changes and its hunks; a click opens the file's diff editor (ReviewView.showDiff), inline
 * buttons keep or reject a file or a hunk, the title keeps or rejects everything or undoes the last reject.
 * It lists again (agent/reviewChanges) when told to: on a `review` task update, when the active task
 * changes, and after each decision.
 */
export class ReviewTree implements vscode.TreeDataProvider<ReviewNode> {
  static readonly viewId = "agentLsp.changes"
  private readonly changed = new vscode.EventEmitter<void>()
  readonly onDidChangeTreeData = this.changed.event
  private files: ReviewFile[] = []
  /** The task whose files are shown (undefined: none yet). */
  private shown: string | undefined
  private loading: Promise<void> | undefined
  private again = false
  /** Whether the next listing may close the diff tabs of files with nothing left (see ReviewView.sync). */
  private closeDone = false
  view: vscode.TreeView<ReviewNode> | undefined

  constructor(
    private readonly review: ReviewView,
    private readonly client: ClientLike,
    private readonly activeTask: () => string | undefined,
  ) {}

  /** Lists again if the active task is not the one shown (a new task, or one picked in Show Tasks). */
  follow(): Promise<void> {
    return this.activeTask() === this.shown ? Promise.resolve() : this.reload()
  }

  /**
   * Lists the active task's files again. Calls during a listing make one more listing after it, and every
   * caller's promise settles once the last one is done (so awaiting it means the view is up to date).
   */
  reload(afterDecision = false): Promise<void> {
    this.closeDone ||= afterDecision
    if (this.loading) {
      this.again = true
      return this.loading
    }
    this.loading = (async () => {
      do {
        this.again = false
        await this.list()
      } while (this.again)
    })().finally(() => {
      this.loading = undefined
    })
    return this.loading
  }

  private async list(): Promise<void> {
    const taskId = this.activeTask()
    // Taken before the request: a listing already under way when the decision came holds the files before it.
    const closeDone = this.closeDone
    this.closeDone = false
    let message: string | undefined
    try {
      this.files = await this.review.files(taskId)
    } catch (error) {
      this.files = []
      message = `Could not list the changes: ${error instanceof Error ? error.message : String(error)}`
    }
    // Open diffs follow the same task's review (not another's: its files were never shown in them).
    if (taskId === this.shown && message === undefined) await this.review.sync(this.files, closeDone).catch(() => undefined)
    this.shown = taskId
    const hunks = this.files.reduce((n, f) => n + f.hunks.length, 0)
    if (this.view) {
      this.view.message = message
      this.view.badge = hunks > 0 ? { value: hunks, tooltip: `${changesText(hunks)} to review in ${this.files.length} file(s)` } : undefined
    }
    await vscode.commands.executeCommand("setContext", HAS_TASK, taskId !== undefined)
    await vscode.commands.executeCommand("setContext", HAS_CHANGES, this.files.length > 0)
    this.changed.fire()
  }

  getChildren(node?: ReviewNode): ReviewNode[] {
    if (!node) return this.files.map((file) => ({ kind: "file", file }))
    if (node.kind === "file" && node.file.status === "modified")
      return node.file.hunks.map((hunk) => ({ kind: "hunk", file: node.file, hunk }))
    return []
  }

  getTreeItem(node: ReviewNode): vscode.TreeItem {
    return node.kind === "file" ? fileItem(node) : hunkItem(node)
  }

  /** A file's click: its diff editor. */
  openFile(node: ReviewNode | undefined): Promise<void> {
    return node ? this.guard(() => this.review.showDiff(node.file)) : Promise.resolve()
  }

  /** A hunk's click: the file's diff editor with the hunk selected. */
  revealHunk(node: ReviewNode | undefined): Promise<void> {
    return node?.kind === "hunk" ? this.guard(() => this.review.showDiff(node.file, node.hunk)) : Promise.resolve()
  }

  /** The inline Keep / Reject of a file or a hunk. */
  decideNode(node: ReviewNode | undefined, action: ReviewDecision["action"]): Promise<void> {
    if (!node) return Promise.resolve()
    const target = node.kind === "hunk" ? { hunkId: node.hunk.hunkId } : { uri: node.file.uri }
    return this.decide([{ ...target, action }])
  }

  /** The title's Keep All. */
  keepAll(): Promise<void> {
    return this.decide([{ all: true, action: "keep" }])
  }

  /** The title's Reject All, after a modal question as Source Control's Discard All asks. */
  async rejectAll(): Promise<void> {
    const count = this.files.reduce((n, f) => n + f.hunks.length, 0)
    const detail = "The text before the agent's changes is written back; Undo Last Reject brings them back."
    const sure = await vscode.window.showWarningMessage(
      `Reject all ${changesText(count)} in ${this.files.length} file(s) of the agent's task?`,
      { modal: true, detail },
      "Reject All",
    )
    if (sure === "Reject All") await this.decide([{ all: true, action: "reject" }])
  }

  /** The title's Undo Last Reject: the server's agent.review.undoReject, which also tells what it restored. */
  undoReject(): Promise<void> {
    const taskId = this.activeTask()
    if (!taskId) return Promise.resolve()
    return this.guard(async () => {
      await this.client.sendRequest("workspace/executeCommand", { command: AgentCommands.reviewUndoReject, arguments: [taskId] })
      await this.reload(true)
    })
  }

  private decide(decisions: ReviewDecision[]): Promise<void> {
    return this.guard(async () => {
      await this.review.decide(decisions, this.shown ?? this.activeTask())
      await this.reload(true)
    })
  }

  /** Every failure is told: the command wrapper in extension.ts drops errors silently. */
  private async guard(run: () => Promise<void>): Promise<void> {
    try {
      await run()
    } catch (error) {
      void vscode.window.showErrorMessage(`Agent: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
}

function fileItem({ file }: { file: ReviewFile }): vscode.TreeItem {
  const target = vscode.Uri.parse(file.uri)
  const path = vscode.workspace.asRelativePath(target)
  const expandable = file.status === "modified" && file.hunks.length > 0
  const item = new vscode.TreeItem(
    reviewItemUri(file),
    expandable ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None,
  )
  item.id = file.uri
  // A collapsible item with a resourceUri counts as a folder: say it is a file, for the file icon theme.
  item.iconPath = vscode.ThemeIcon.File
  item.label = path
  item.description = `${statusText(file)}, ${changesText(file.hunks.length)}`
  const typed = file.hunks.some((h) => h.userEdited) ? "\nSome changes hold your own typing: rejecting them drops it too." : ""
  item.tooltip = `${path}: ${item.description}${typed}\nClick to see the changes; the buttons keep or reject the whole file.`
  item.contextValue = "agentLsp.reviewFile"
  item.command = { command: "agentLsp.reviewOpenFile", title: "Open Changes", arguments: [{ kind: "file", file }] }
  return item
}

function hunkItem(node: ReviewNode & { kind: "hunk" }): vscode.TreeItem {
  const { hunk } = node
  const item = new vscode.TreeItem(hunkLabel(hunk), vscode.TreeItemCollapsibleState.None)
  item.id = `${node.file.uri}#${hunk.hunkId}`
  const first = hunk.range.start.line + 1
  const last = hunk.range.end.line
  const where = hunk.newText === "" ? `removed at line ${first}` : last > first ? `lines ${first}–${last}` : `line ${first}`
  item.description = `${where}${hunk.userEdited ? " (with your typing)" : ""}`
  item.tooltip = [hunk.oldText && `before:\n${hunk.oldText}`, hunk.newText && `now:\n${hunk.newText}`].filter(Boolean).join("\n")
  item.contextValue = "agentLsp.reviewHunk"
  item.command = { command: "agentLsp.reviewRevealHunk", title: "Show Change", arguments: [node] }
  return item
}

/** The first changed line that says something (a removal: the first removed line, marked). */
function hunkLabel(hunk: ReviewHunk): string {
  const firstLine = (text: string) =>
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? ""
  const label = hunk.newText === "" ? `− ${firstLine(hunk.oldText)}` : firstLine(hunk.newText) || "(blank lines)"
  return label.length > 80 ? `${label.slice(0, 79)}…` : label
}
