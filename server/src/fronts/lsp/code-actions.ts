import { AgentCommands } from "@agent-lsp/protocol/names"
import { CodeActionKind, type CodeAction, type CodeActionParams } from "vscode-languageserver/node"

/**
 * Code actions on a selection: "Ask agent about selection" (a non-empty range) and "Fix diagnostics with
 * agent" (when the editor sends diagnostics for the range). Both start a task through agent.newTask with
 * the document and range as context, so editors without custom requests (Helix, Zed, Emacs) can use them.
 */
export function agentCodeActions(params: CodeActionParams): CodeAction[] {
  const { textDocument, range, context } = params
  const actions: CodeAction[] = []
  const location = { uri: textDocument.uri, range }
  const empty = range.start.line === range.end.line && range.start.character === range.end.character
  if (!empty) {
    actions.push({
      title: "Ask agent about selection",
      kind: CodeActionKind.Empty,
      command: {
        title: "Ask agent about selection",
        command: AgentCommands.newTask,
        arguments: ["Explain the selected code and point out problems in it.", location],
      },
    })
  }
  if (context.diagnostics.length > 0) {
    const problems = context.diagnostics
      .map((d) => `- line ${d.range.start.line + 1}: ${d.message}${d.source ? ` (${d.source})` : ""}`)
      .join("\n")
    actions.push({
      title: "Fix diagnostics with agent",
      kind: CodeActionKind.QuickFix,
      diagnostics: context.diagnostics,
      command: {
        title: "Fix diagnostics with agent",
        command: AgentCommands.newTask,
        arguments: [`Fix these problems in the selected code:\n${problems}`, location],
      },
    })
  }
  return actions
}
