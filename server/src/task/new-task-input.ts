import { randomBytes } from "node:crypto"
import { fileURLToPath } from "node:url"
import type { ParamsOf } from "@agent-lsp/protocol"
import { expandSlashCommand } from "../skills"
import type { EditorPort, ToolContext } from "../tools/context"
import { expandMcpPrompt } from "../tools/mcp-dynamic"
import { TaskRequestError } from "./service"

/**
 * What agent/newTask's params become: an id, a title, the task's folder, and its first message; and what
 * the user's text (of agent/newTask and agent/sendMessage) becomes: a command expanded, a hook's context added.
 */

export function newTaskId(): string {
  return `${Date.now().toString(36)}-${randomBytes(3).toString("hex")}`
}

export function titleOf(text: string): string {
  const line = text.trim().split("\n", 1)[0] ?? ""
  return line.length > 60 ? `${line.slice(0, 57)}...` : line
}

/** The workspace folder a task belongs to: the one holding its context file, else the first. */
export function folderFor(uri: string | undefined, folders: readonly string[]): string {
  if (uri?.startsWith("file:")) {
    const path = fileURLToPath(uri)
    const match = folders.filter((f) => path === f || path.startsWith(f.endsWith("/") ? f : `${f}/`)).sort((a, b) => b.length - a.length)[0]
    if (match) return match
  }
  return folders[0] ?? ""
}

/** The user's text plus what they pointed at (a selection is quoted from the open buffer). */
export function withContext(text: string, context: ParamsOf<"newTask">["context"], editor: EditorPort): string {
  if (!context?.length) return text
  const parts = [text]
  for (const item of context) {
    const path = item.uri.startsWith("file:") ? fileURLToPath(item.uri) : item.uri
    const doc = editor.openDocument(path)
    const range = item.range
    // LSP ranges end exclusively: a selection of whole lines ends at character 0 of the line after it.
    const last = range ? (range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line) : 0
    if (range && doc) {
      const lines = doc.text
        .split("\n")
        .slice(range.start.line, last + 1)
        .join("\n")
      parts.push(`Selection in ${path} (lines ${range.start.line + 1}-${last + 1}):\n\`\`\`\n${lines}\n\`\`\``)
    } else parts.push(range ? `See ${path}, lines ${range.start.line + 1}-${last + 1}.` : `See ${path}.`)
  }
  return parts.join("\n\n")
}

/**
 * `/mcp.<server>.<prompt> args` becomes the prompt's messages (prompts/get), `/name args` a command file's
 * text; a failed MCP prompt is refused with the reason, so the user can fix the arguments.
 */
export async function expandCommand(text: string, mcp: ToolContext["mcp"], folders: readonly string[]): Promise<string> {
  const prompt = await expandMcpPrompt(text, mcp)
  if (prompt && "error" in prompt) throw new TaskRequestError(prompt.error, "invalid")
  return prompt ? prompt.text : expandSlashCommand(text, folders)
}

/** A UserPromptSubmit hook's additionalContext rides on the prompt it was given for. */
export function withHookContext(text: string, context: string | undefined): string {
  return context ? `${text}\n\n<hook-context>\n${context}\n</hook-context>` : text
}
