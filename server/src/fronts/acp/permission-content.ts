import type { ToolCallContent } from "@agentclientprotocol/sdk"
import type { ApprovalRequest } from "../../tools/context"

/**
 * What a permission request's tool call shows: each edited file as ACP's diff item (clients draw their
 * diff view from it before the user decides), then the text of the request (the unified diff as markdown,
 * for clients that show only text, or the command line).
 */
export function permissionContent(request: ApprovalRequest): ToolCallContent[] {
  const diffs: ToolCallContent[] = (request.files ?? []).map((file) => ({
    type: "diff",
    path: file.path,
    oldText: file.oldText ?? null,
    newText: file.newText,
  }))
  const text = request.diff ? `${request.detail}\n\n\`\`\`diff\n${request.diff}\n\`\`\`` : (request.command ?? request.detail)
  return [...diffs, { type: "content", content: { type: "text", text } }]
}
