/**
 * The part of the `vscode` module the protocol glue uses, spelled out so unit tests can pass a plain
 * object instead of mocking the module. The real `vscode` module satisfies it (extension.ts passes it).
 */
export interface UriLike {
  toString(): string
  readonly fsPath: string
}

export interface QuickPickItemLike {
  label: string
  description?: string
  detail?: string
}

export interface OutputChannelLike {
  append(value: string): void
  show(preserveFocus?: boolean): void
}

export interface TextDocumentLike {
  readonly uri: UriLike
  readonly isDirty: boolean
  save(): Thenable<boolean>
}

/** An editor tab; a diff tab's input has `original` and `modified` URIs. */
export interface TabLike {
  readonly input: unknown
}

export interface VscodeApi {
  window: {
    showWarningMessage(message: string, options: { modal?: boolean; detail?: string }, ...items: string[]): Thenable<string | undefined>
    showInformationMessage(message: string, ...items: string[]): Thenable<string | undefined>
    showErrorMessage(message: string, ...items: string[]): Thenable<string | undefined>
    showQuickPick<T extends QuickPickItemLike>(
      items: readonly T[] | Thenable<readonly T[]>,
      options?: { placeHolder?: string; ignoreFocusOut?: boolean },
    ): Thenable<T | undefined>
    showInputBox(options?: {
      prompt?: string
      placeHolder?: string
      ignoreFocusOut?: boolean
      value?: string
    }): Thenable<string | undefined>
    /** Open editor tabs (VS Code 1.67+): diff tabs opened for an approval are closed after the answer. */
    readonly tabGroups?: {
      readonly all: readonly { readonly tabs: readonly TabLike[] }[]
      /** Typed loosely: VS Code overloads it for tabs and groups. */
      close(tab: never): Thenable<boolean>
    }
  }
  workspace: {
    readonly textDocuments: readonly TextDocumentLike[]
    readonly workspaceFolders: readonly { readonly uri: UriLike }[] | undefined
    /** The file's text as the editor has it (open buffer first); the multi-file diff of a rename reads it. */
    openTextDocument?(uri: UriLike): Thenable<{ getText(): string }>
  }
  commands: {
    executeCommand<T = unknown>(command: string, ...rest: unknown[]): Thenable<T>
  }
  Uri: {
    parse(value: string): UriLike
    file(path: string): UriLike
  }
}

/** The language client as the glue uses it (vscode-languageclient's LanguageClient satisfies it). */
export interface ClientLike {
  sendRequest<R>(method: string, params: unknown): Promise<R>
}
