import { AgentCommands } from "@agent-lsp/protocol/names"
import type { ResultOf } from "@agent-lsp/protocol"
import {
  CodeActionKind,
  DiagnosticSeverity,
  type CodeAction,
  type CodeActionParams,
  type CodeLens,
  type CodeLensParams,
  type Diagnostic,
  type Range,
} from "vscode-languageserver/node"
import type { PublishedDiagnostics } from "./published-diagnostics"

/** The diagnostics' source: editors show it, and code actions recognise their hunks by it. */
export const REVIEW_SOURCE = "agent-lsp review"

type ReviewFile = ResultOf<"reviewChanges">["files"][number]

interface ShownHunk {
  taskId: string
  hunkId: string
  range: Range
}

/**
 * The review in any LSP editor: each unreviewed hunk is a Hint diagnostic (merged with the server's other
 * diagnostics), with code actions and code lenses that keep or reject it or its file through the
 * agent.review.* commands. Refreshed whenever a task's review changes.
 */
export class ReviewDiagnostics {
  private readonly hunks = new Map<string, ShownHunk[]>()
  /** The files each task's review showed last, so files that left it are cleared. */
  private readonly shownByTask = new Map<string, Set<string>>()

  constructor(private readonly published: PublishedDiagnostics) {}

  private readonly diagnosticsOf = new Map<string, Diagnostic[]>()
  /** Per task and file, what its diagnostics were made from last (signatureOf). */
  private readonly signatures = new Map<string, string>()

  /** Shows `files` as task `taskId`'s review (titled `title`), clearing the files it no longer has. */
  show(taskId: string, title: string, files: ReviewFile[]): void {
    const now = new Set(files.map((f) => f.uri))
    for (const uri of this.shownByTask.get(taskId) ?? [])
      if (!now.has(uri)) {
        this.signatures.delete(`${taskId}\u0000${uri}`)
        this.replace(uri, taskId, [], [])
      }
    for (const file of files) {
      // A refresh follows every change of the review; files whose hunks did not change are not sent again.
      const key = `${taskId}\u0000${file.uri}`
      const signature = signatureOf(title, file)
      if (this.signatures.get(key) === signature) continue
      this.signatures.set(key, signature)
      this.replace(
        file.uri,
        taskId,
        file.hunks.map((h) => ({ taskId, hunkId: h.hunkId, range: h.range })),
        file.hunks.map((h) => diagnostic(taskId, title, file, h)),
      )
    }
    this.shownByTask.set(taskId, now)
  }

  private replace(uri: string, taskId: string, hunks: ShownHunk[], diagnostics: Diagnostic[]): void {
    const ofTask = (d: Diagnostic) => (d.data as { taskId?: string } | undefined)?.taskId === taskId
    this.hunks.set(uri, [...(this.hunks.get(uri) ?? []).filter((h) => h.taskId !== taskId), ...hunks])
    const merged = [...(this.diagnosticsOf.get(uri) ?? []).filter((d) => !ofTask(d)), ...diagnostics]
    this.diagnosticsOf.set(uri, merged)
    this.published.set(REVIEW_SOURCE, uri, merged)
  }

  /** Keep/Reject this change and Keep/Reject file, on the hunks the range touches. */
  codeActions(params: CodeActionParams): CodeAction[] {
    const uri = params.textDocument.uri
    const hits = (this.hunks.get(uri) ?? []).filter((h) => touches(h.range, params.range))
    if (hits.length === 0) return []
    const hunk = hits[0]!
    const target = { hunkId: hunk.hunkId }
    const file = { uri }
    const action = (title: string, command: string, args: unknown[]): CodeAction => ({
      title,
      kind: CodeActionKind.QuickFix,
      diagnostics: params.context.diagnostics.filter((d) => d.source === REVIEW_SOURCE),
      command: { title, command, arguments: args },
    })
    return [
      action("Keep this change", AgentCommands.reviewKeep, [target, hunk.taskId]),
      action("Reject this change", AgentCommands.reviewReject, [target, hunk.taskId]),
      action("Keep file", AgentCommands.reviewKeep, [file, hunk.taskId]),
      action("Reject file", AgentCommands.reviewReject, [file, hunk.taskId]),
    ]
  }

  /** "Keep | Reject" above each hunk, for editors that show code lenses. */
  codeLenses(params: CodeLensParams): CodeLens[] {
    return (this.hunks.get(params.textDocument.uri) ?? []).flatMap((h) => {
      const at = { start: h.range.start, end: h.range.start }
      return [
        { range: at, command: { title: "Keep change", command: AgentCommands.reviewKeep, arguments: [{ hunkId: h.hunkId }, h.taskId] } },
        {
          range: at,
          command: { title: "Reject change", command: AgentCommands.reviewReject, arguments: [{ hunkId: h.hunkId }, h.taskId] },
        },
      ]
    })
  }
}

function diagnostic(taskId: string, title: string, file: ReviewFile, hunk: ReviewFile["hunks"][number]): Diagnostic {
  const removed = lineCount(hunk.oldText)
  const added = lineCount(hunk.newText)
  const what = file.status === "created" ? "new file" : file.status === "deleted" ? "deleted file" : `+${added} -${removed} lines`
  return {
    range: hunk.range,
    severity: DiagnosticSeverity.Hint,
    source: REVIEW_SOURCE,
    code: hunk.hunkId,
    message: `Unreviewed change by agent task ${taskId} "${title}" (${what}${file.byCommand ? ", made by a command" : ""}${hunk.userEdited ? ", with your typing in it" : ""}): keep or reject it with the code actions.`,
    data: { taskId, hunkId: hunk.hunkId },
  }
}

/** Everything a file's review diagnostics are made of, but the hunks' texts (their ids hash those). */
function signatureOf(title: string, file: ReviewFile): string {
  const hunks = file.hunks.map((h) => `${h.hunkId}:${h.range.start.line}-${h.range.end.line}${h.userEdited ? "*" : ""}`)
  return `${title}\u0000${file.status}\u0000${file.byCommand}\u0000${hunks.join(",")}`
}

function lineCount(text: string): number {
  return text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0)
}

/** True when two line ranges overlap or touch (a cursor on a hunk's first or last line counts). */
function touches(a: Range, b: Range): boolean {
  const aEnd = Math.max(a.end.line - (a.end.character === 0 && a.end.line > a.start.line ? 1 : 0), a.start.line)
  return a.start.line <= b.end.line && b.start.line <= aEnd
}
