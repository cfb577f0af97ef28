import { fileURLToPath, pathToFileURL } from "node:url"
import { TextDocument } from "vscode-languageserver-textdocument"
import type {
  DidChangeTextDocumentParams,
  DidCloseTextDocumentParams,
  DidOpenTextDocumentParams,
  DidSaveTextDocumentParams,
} from "vscode-languageserver/node"
import { readRegularFile } from "../../config/regular-file"
import type { EnvironmentPort } from "../../task/environment"
import type { OpenDocument } from "../../tools/context"

interface Tracked {
  doc: TextDocument
  path: string
  dirtyByUser: boolean
}

interface Expectation {
  text: string
  resolve: (matched: boolean) => void
  /** A didChange that did not produce `text` arrived while waiting. */
  sawOtherChange?: boolean
}

export function uriToPath(uri: string): string | undefined {
  try {
    return uri.startsWith("file:") ? fileURLToPath(uri) : undefined
  } catch {
    return undefined
  }
}

export function pathToUri(path: string): string {
  return pathToFileURL(path).toString()
}

/**
 * Open documents as the editor reports them (incremental sync). Knows which changes were the agent's:
 * an edit the agent sent is "expected" until a didChange shows the buffer holding its text; any other
 * change marks the buffer as changed by the user until the next save.
 */
export class DocumentStore {
  private readonly byPath = new Map<string, Tracked>()
  private readonly expectations = new Map<string, Expectation[]>()
  /** Paths the user changed since the task layer last asked (EnvironmentPort.takeUserEdits). */
  private readonly userEdits = new Set<string>()
  /** The last range the editor asked code actions for: where the user's cursor or selection is. */
  private selection: { path: string; startLine: number; endLine: number } | undefined

  /** `onUserEdit`: told of each change of an open buffer that was not one of our edits (the review's baselines follow). */
  constructor(private readonly onUserEdit?: (path: string, before: string, after: string) => void) {}

  didOpen({ textDocument: d }: DidOpenTextDocumentParams): void {
    const path = uriToPath(d.uri)
    if (!path) return
    const tracked: Tracked = { doc: TextDocument.create(d.uri, d.languageId, d.version, d.text), path, dirtyByUser: false }
    this.byPath.delete(path) // re-inserted last: the Map's order is the buffers' recency
    this.byPath.set(path, tracked)
    // A buffer may open already unsaved (restored editor session, a server restart, a late attach): if it
    // differs from the disk, those are the user's changes and nothing may be written behind them.
    // The path is the editor's, in a workspace a repository controls: a FIFO there must not block a thread.
    void readRegularFile(path).then(
      (bytes) => {
        if (bytes.toString("utf8") !== d.text && this.byPath.get(path) === tracked && tracked.doc.version === d.version)
          tracked.dirtyByUser = true
      },
      () => undefined, // not on disk yet (or no regular file): nothing on disk to protect
    )
  }

  didChange({ textDocument, contentChanges }: DidChangeTextDocumentParams): void {
    const path = uriToPath(textDocument.uri)
    const tracked = path ? this.byPath.get(path) : undefined
    if (!path || !tracked) return
    this.byPath.delete(path)
    this.byPath.set(path, tracked)
    const before = tracked.doc.getText()
    tracked.doc = TextDocument.update(tracked.doc, contentChanges, textDocument.version ?? tracked.doc.version + 1)
    const text = tracked.doc.getText()
    const waiting = this.expectations.get(path) ?? []
    const match = waiting.findIndex((e) => e.text === text)
    if (match >= 0) {
      waiting.splice(match, 1)[0]!.resolve(true)
      return
    }
    // Editors may deliver one edit as several didChange notifications, so a change while an edit is
    // awaited is only suspect: if the awaited text never arrives, it was the user's (see expect()).
    if (waiting.length === 0) {
      tracked.dirtyByUser = true
      this.userEdits.add(path)
      this.onUserEdit?.(path, before, text)
    } else for (const expectation of waiting) expectation.sawOtherChange = true
  }

  didSave({ textDocument }: DidSaveTextDocumentParams): void {
    const path = uriToPath(textDocument.uri)
    const tracked = path ? this.byPath.get(path) : undefined
    if (tracked) tracked.dirtyByUser = false
  }

  didClose({ textDocument }: DidCloseTextDocumentParams): void {
    const path = uriToPath(textDocument.uri)
    if (path) this.byPath.delete(path)
  }

  /** Code actions are asked for where the user is: the best an LSP server learns of the selection. */
  noteCodeActionRange(uri: string, range: { start: { line: number }; end: { line: number } }): void {
    const path = uriToPath(uri)
    if (path && this.byPath.has(path)) this.selection = { path, startLine: range.start.line + 1, endLine: range.end.line + 1 }
  }

  /** What the task layer tells the model about the editor (see task/environment.ts). */
  environment(): EnvironmentPort {
    return {
      openFiles: () => [...this.byPath.keys()].reverse(),
      activeFile: () => {
        const recent = [...this.byPath.keys()].at(-1)
        if (this.selection && this.byPath.has(this.selection.path) && (!recent || this.selection.path === recent)) {
          const { path, startLine, endLine } = this.selection
          return { path, selection: { startLine, endLine } }
        }
        return recent ? { path: recent } : undefined
      },
      takeUserEdits: () => {
        const edits = [...this.userEdits]
        this.userEdits.clear()
        return edits
      },
    }
  }

  get(path: string): OpenDocument | undefined {
    const tracked = this.byPath.get(path)
    if (!tracked) return undefined
    return { path, uri: tracked.doc.uri, version: tracked.doc.version, text: tracked.doc.getText(), dirtyByUser: tracked.dirtyByUser }
  }

  textDocument(path: string): TextDocument | undefined {
    return this.byPath.get(path)?.doc
  }

  /**
   * Resolves true when a didChange makes the buffer hold `text` (or it already does), false after
   * `timeoutMs`. Register before sending the edit so a fast didChange is not missed.
   */
  expect(path: string, text: string, timeoutMs: number): { promise: Promise<boolean>; cancel: () => void; giveUp: () => void } {
    let settle!: (matched: boolean) => void
    const promise = new Promise<boolean>((resolve) => (settle = resolve))
    const entry: Expectation = { text, resolve: (matched) => settle(matched) }
    const list = this.expectations.get(path) ?? []
    list.push(entry)
    this.expectations.set(path, list)
    const remove = () => {
      const current = this.expectations.get(path)
      const index = current?.indexOf(entry) ?? -1
      if (current && index >= 0) current.splice(index, 1)
      if (current?.length === 0) this.expectations.delete(path)
    }
    const giveUp = () => {
      remove()
      const matched = this.get(path)?.text === text
      // The awaited edit never showed up but the buffer changed: treat those changes as the user's.
      const tracked = this.byPath.get(path)
      if (!matched && entry.sawOtherChange && tracked) tracked.dirtyByUser = true
      settle(matched)
    }
    const timer = setTimeout(giveUp, timeoutMs)
    promise.finally(() => clearTimeout(timer))
    return {
      promise,
      /** Stops waiting now, with the same verdict the timeout would give. */
      giveUp,
      cancel: () => {
        remove()
        settle(false)
      },
    }
  }
}
