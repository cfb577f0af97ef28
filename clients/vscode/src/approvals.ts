import type { ApprovalOption, ParamsOf, ResultOf } from "@agent-lsp/protocol"
import { proposedFiles } from "./multi-diff"
import type { TaskState } from "./task-state"
import type { QuickPickItemLike, UriLike, VscodeApi } from "./vscode-api"

/** Holds proposed file contents for the diff editor (the `agent-lsp-proposed:` document provider). */
export class ProposedTexts {
  static readonly scheme = "agent-lsp-proposed"
  private readonly texts = new Map<string, string>()

  uriFor(vscode: VscodeApi, requestId: string, path: string): UriLike {
    return vscode.Uri.parse(`${ProposedTexts.scheme}:${encodeURI(path)}?${encodeURIComponent(requestId)}`)
  }

  set(uri: UriLike, text: string): void {
    this.texts.set(uri.toString(), text)
  }

  get(uri: UriLike): string {
    return this.texts.get(uri.toString()) ?? ""
  }

  delete(uri: UriLike): void {
    this.texts.delete(uri.toString())
  }
}

/** The edited file named by a unified diff (`+++ b/src/a.ts`, `+++ src/a.ts`), or undefined. */
export function diffTarget(diff: string): string | undefined {
  const line = diff.split("\n").find((l) => l.startsWith("+++ "))
  if (!line) return undefined
  const name = line.slice(4).split("\t")[0].trim()
  if (name === "/dev/null" || name === "") return undefined
  return name.replace(/^b\//, "")
}

function rejectOption(options: ApprovalOption[]): ApprovalOption | undefined {
  return options.find((o) => o.kind === "reject_once") ?? options.find((o) => o.kind === "reject_always")
}

/**
 * agent/requestApproval: an edit first opens a diff editor (current file ↔ proposed text), then every
 * approval is a modal message with the options. Closing the modal rejects (fail closed); a reject may
 * carry feedback typed in an input box.
 */
export async function requestApproval(
  vscode: VscodeApi,
  proposed: ProposedTexts,
  req: ParamsOf<"requestApproval">,
): Promise<ResultOf<"requestApproval">> {
  let proposedUri: UriLike | undefined
  let emptyUri: UriLike | undefined
  /** The proposed sides of a many-file change (a rename) shown in VS Code's multi-file diff editor. */
  let manyUris: UriLike[] = []
  if (req.proposedText === undefined && req.diff) manyUris = await showManyFileDiff(vscode, proposed, req)
  if (req.proposedText !== undefined) {
    const target = req.diff ? diffTarget(req.diff) : undefined
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath
    if (target && folder) {
      const path = target.startsWith("/") ? target : `${folder}/${target}`
      proposedUri = proposed.uriFor(vscode, req.requestId, path)
      proposed.set(proposedUri, req.proposedText)
      // A new file has nothing on disk to compare with: diff against an empty document, not a missing file.
      if (isNewFile(req.diff!)) {
        emptyUri = proposed.uriFor(vscode, `${req.requestId}-empty`, path)
        proposed.set(emptyUri, "")
      }
      const title = `${req.title} (${emptyUri ? "new file" : "proposed"})`
      await vscode.commands.executeCommand("vscode.diff", emptyUri ?? vscode.Uri.file(path), proposedUri, title, { preview: true })
    }
  }
  try {
    const detail = [req.detail, req.command ? `$ ${req.command}` : undefined, !proposedUri && req.diff ? req.diff : undefined]
      .filter((part) => part)
      .join("\n\n")
    const label = await vscode.window.showWarningMessage(req.title, { modal: true, detail }, ...req.options.map((o) => o.label))
    const chosen = req.options.find((o) => o.label === label) ?? rejectOption(req.options)
    if (!chosen) return { optionId: req.options[req.options.length - 1]?.optionId ?? "reject" }
    if (chosen.kind === "reject_once" || chosen.kind === "reject_always") {
      const feedback = await vscode.window.showInputBox({ prompt: "Tell the agent why (optional)", ignoreFocusOut: true })
      return feedback ? { optionId: chosen.optionId, feedback } : { optionId: chosen.optionId }
    }
    return { optionId: chosen.optionId }
  } finally {
    if (proposedUri) {
      await closeDiffTabs(vscode, proposedUri)
      proposed.delete(proposedUri)
    }
    if (emptyUri) proposed.delete(emptyUri)
    if (manyUris.length) {
      await closeDiffTabs(vscode, manyUris[0]!)
      for (const uri of manyUris) proposed.delete(uri)
    }
  }
}

/**
 * A change to many files (a rename) opens in VS Code's multi-file diff editor (`vscode.changes`), every
 * file's current text beside its proposed text, before the dialog asks. Returns the proposed documents'
 * URIs; none when the diff is one file, does not apply to the files now, or the editor cannot show it
 * (the dialog's detail then carries the diff as text, as it always does).
 */
async function showManyFileDiff(vscode: VscodeApi, proposed: ProposedTexts, req: ParamsOf<"requestApproval">): Promise<UriLike[]> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath
  const { workspace } = vscode
  if (!folder || !workspace.openTextDocument || !req.diff) return []
  const absolute = (path: string) => (path.startsWith("/") ? path : `${folder}/${path}`)
  const files = await proposedFiles(req.diff, async (path) =>
    Promise.resolve(workspace.openTextDocument!(vscode.Uri.file(absolute(path)))).then(
      (document) => document.getText(),
      () => undefined,
    ),
  )
  if (!files) return []
  const rows = files.map((file) => {
    const current = vscode.Uri.file(absolute(file.path))
    const after = proposed.uriFor(vscode, req.requestId, absolute(file.path))
    proposed.set(after, file.after)
    return { current, after }
  })
  try {
    await vscode.commands.executeCommand(
      "vscode.changes",
      `${req.title} (proposed)`,
      rows.map((row) => [row.current, row.current, row.after]),
    )
  } catch {
    // An editor without the multi-file diff editor: the dialog's detail still shows every file's diff.
  }
  return rows.map((row) => row.after)
}

/** Whether a unified diff creates its file (`--- /dev/null`). */
export function isNewFile(diff: string): boolean {
  return diff.split("\n").some((line) => line.startsWith("--- /dev/null"))
}

/** Closes the diff tabs showing `modified` (an approval's proposed text) once the approval is answered. */
async function closeDiffTabs(vscode: VscodeApi, modified: UriLike): Promise<void> {
  const groups = vscode.window.tabGroups
  if (!groups) return
  const target = modified.toString()
  for (const group of groups.all)
    for (const tab of group.tabs) {
      // A diff tab names its modified side; a multi-file diff tab (vscode.changes) lists its file diffs.
      const input = tab.input as { modified?: { toString(): string }; textDiffs?: { modified: { toString(): string } }[] } | undefined
      const sides = [input?.modified, ...(input?.textDiffs ?? []).map((d) => d.modified)]
      if (sides.some((side) => side?.toString() === target)) await groups.close(tab as never)
    }
}

/** Characters a quick pick placeholder shows before it cuts the text. */
const LONG_QUESTION = 80

interface SuggestionItem extends QuickPickItemLike {
  answer?: string
}

/**
 * agent/askFollowup: the suggestions in a quick pick, plus "Type an answer…" (an input box). A dismissed
 * question is answered later with agent.sendMessage, so it resolves deferred and the task waits.
 */
export async function askFollowup(vscode: VscodeApi, state: TaskState, req: ParamsOf<"askFollowup">): Promise<ResultOf<"askFollowup">> {
  // A quick pick's placeholder is one short line: a longer question is shown whole in a modal first.
  if (req.question.length > LONG_QUESTION || req.question.includes("\n")) {
    const typeOwn = "Type an answer…"
    const labels = req.suggestions.map((s) => s.text)
    const chosen = await vscode.window.showWarningMessage("The agent asks", { modal: true, detail: req.question }, ...labels, typeOwn)
    if (chosen !== undefined && chosen !== typeOwn) return { answer: chosen }
    if (chosen === typeOwn) {
      const typed = await vscode.window.showInputBox({
        prompt: "Your answer",
        placeHolder: req.question.slice(0, LONG_QUESTION),
        ignoreFocusOut: true,
      })
      if (typed) return { answer: typed }
    }
    state.pendingQuestion.set(req.taskId, req.requestId)
    void vscode.window.showInformationMessage("The agent waits for your answer: use “Agent: Send Message”.")
    return { deferred: true }
  }
  const items: SuggestionItem[] = [
    ...req.suggestions.map((s) => ({ label: s.text, description: s.mode ? `switches to ${s.mode}` : undefined, answer: s.text })),
    { label: "Type an answer…" },
  ]
  const picked = await vscode.window.showQuickPick(items, { placeHolder: req.question, ignoreFocusOut: true })
  if (picked?.answer !== undefined) return { answer: picked.answer }
  if (picked) {
    const typed = await vscode.window.showInputBox({ prompt: req.question, ignoreFocusOut: true })
    if (typed) return { answer: typed }
  }
  state.pendingQuestion.set(req.taskId, req.requestId)
  void vscode.window.showInformationMessage("The agent waits for your answer: use “Agent: Send Message”.")
  return { deferred: true }
}
