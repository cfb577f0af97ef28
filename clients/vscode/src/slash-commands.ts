import type { ResultOf } from "@agent-lsp/protocol"
import { AgentMethods } from "@agent-lsp/protocol/names"
import type { VscodeApi } from "./vscode-api"

/**
 * Completion for `/` in a task's or message's text, VS Code's way: typing just "/" (or "/rev") opens a
 * quick pick of the server's slash commands (agent/listCommands) and then asks for the arguments. The
 * server expands `/name args` itself; this only helps type it. Any other text comes back unchanged;
 * undefined means the user dismissed a picker.
 */
export async function completeSlashCommand(
  vscode: VscodeApi,
  request: <R>(method: string, params: unknown) => Promise<R>,
  typed: string,
): Promise<string | undefined> {
  if (!typed.startsWith("/") || /\s/.test(typed)) return typed
  const { commands } = await request<ResultOf<"listCommands">>(AgentMethods.listCommands, {})
  const prefix = typed.slice(1)
  const items = commands
    .filter((c) => c.name.startsWith(prefix))
    .map((c) => ({ label: `/${c.name}`, description: c.argumentHint, detail: c.description, hint: c.argumentHint }))
  if (items.length === 0) return typed
  const picked = await vscode.window.showQuickPick(items, { placeHolder: "Slash command", ignoreFocusOut: true })
  if (!picked) return undefined
  const args = await vscode.window.showInputBox({
    prompt: `Arguments for ${picked.label} (may be empty)`,
    placeHolder: picked.hint,
    ignoreFocusOut: true,
  })
  if (args === undefined) return undefined
  return args.trim() ? `${picked.label} ${args.trim()}` : picked.label
}
