import type { OutputChannelLike, QuickPickItemLike, TextDocumentLike, UriLike, VscodeApi } from "../../../clients/vscode/src/vscode-api"

/** What a fake UI call should answer, in order of the calls. */
type Answer = string | undefined | ((items: readonly QuickPickItemLike[]) => unknown)

function uri(value: string): UriLike {
  return { toString: () => value, fsPath: value.replace(/^file:\/\//, "") }
}

/**
 * A `vscode` object for the extension's glue: records every UI call and answers from scripted queues.
 * Passed in as a value (the glue takes a VscodeApi), never installed as a module mock.
 */
export class FakeVscode {
  readonly calls: { api: string; args: unknown[] }[] = []
  readonly modalAnswers: Answer[] = []
  readonly pickAnswers: Answer[] = []
  readonly inputAnswers: Answer[] = []
  readonly documents: (TextDocumentLike & { saves: number })[] = []
  folders: string[] = ["/ws"]
  /** Open editor tabs (their `input`), and the tabs closed through tabGroups.close. */
  readonly tabs: { input: unknown }[] = []
  readonly closedTabs: { input: unknown }[] = []

  document(path: string, isDirty: boolean, saveWorks = true): TextDocumentLike & { saves: number } {
    const doc = {
      uri: uri(`file://${path}`),
      isDirty,
      saves: 0,
      save: async () => {
        doc.saves += 1
        return saveWorks
      },
    }
    this.documents.push(doc)
    return doc
  }

  api(): VscodeApi {
    const next = (queue: Answer[], items: readonly QuickPickItemLike[] = []) => {
      const answer = queue.shift()
      return typeof answer === "function" ? answer(items) : answer
    }
    return {
      window: {
        showWarningMessage: async (message, options, ...items) => {
          this.calls.push({ api: "showWarningMessage", args: [message, options, ...items] })
          return next(this.modalAnswers) as string | undefined
        },
        showInformationMessage: async (message, ...items) => {
          this.calls.push({ api: "showInformationMessage", args: [message, ...items] })
          return undefined
        },
        showErrorMessage: async (message, ...items) => {
          this.calls.push({ api: "showErrorMessage", args: [message, ...items] })
          return undefined
        },
        showQuickPick: (async (items: readonly QuickPickItemLike[], options?: unknown) => {
          const list = await items
          this.calls.push({ api: "showQuickPick", args: [list, options] })
          return next(this.pickAnswers, list)
        }) as VscodeApi["window"]["showQuickPick"],
        showInputBox: async (options) => {
          this.calls.push({ api: "showInputBox", args: [options] })
          return next(this.inputAnswers) as string | undefined
        },
        tabGroups: {
          all: [{ tabs: this.tabs }],
          close: (async (tab: { input: unknown }) => {
            this.tabs.splice(this.tabs.indexOf(tab), 1)
            this.closedTabs.push(tab)
            return true
          }) as (tab: never) => Thenable<boolean>,
        },
      },
      workspace: {
        textDocuments: this.documents,
        workspaceFolders: this.folders.map((f) => ({ uri: uri(`file://${f}`) })),
      },
      commands: {
        executeCommand: async <T>(command: string, ...rest: unknown[]) => {
          this.calls.push({ api: "executeCommand", args: [command, ...rest] })
          // vscode.diff opens a tab whose input names both sides, as VS Code's TabInputTextDiff does.
          if (command === "vscode.diff") this.tabs.push({ input: { original: rest[0], modified: rest[1] } })
          return undefined as T
        },
      },
      Uri: { parse: uri, file: (path: string) => uri(`file://${path}`) },
    }
  }

  callsTo(api: string): unknown[][] {
    return this.calls.filter((c) => c.api === api).map((c) => c.args)
  }
}

/** An output channel that keeps what was appended. */
export class FakeChannel implements OutputChannelLike {
  text = ""
  shown = 0
  append(value: string): void {
    this.text += value
  }
  show(): void {
    this.shown += 1
  }
}

/** A language client that records requests and answers from a table. */
export class FakeClient {
  readonly requests: { method: string; params: unknown }[] = []
  constructor(private readonly answers: Record<string, unknown> = {}) {}
  async sendRequest<R>(method: string, params: unknown): Promise<R> {
    this.requests.push({ method, params })
    return (this.answers[method] ?? {}) as R
  }
}
