import { relative } from "node:path"
import { fileURLToPath } from "node:url"
import type { AgentCore } from "../../core/agent-core"

/**
 * `/review` in an ACP client: lists what the session's task changed that nobody has kept or rejected yet
 * (the core's review), as a message, without a model turn. Zed reviews our edits itself (they reach it as
 * `diff` content and `fs/write_text_file`); this covers what its own review cannot see: changes made by
 * commands, and what is left after a restart. A workspace or global command named `review` wins over it.
 */
export const REVIEW_COMMAND = {
  name: "review",
  description: "Lists what this session's task changed that is not kept or rejected yet (changes made by commands included).",
}

/** True when the prompt is our /review (and no command file of that name exists). */
export async function isReviewPrompt(core: AgentCore, text: string): Promise<boolean> {
  if (!/^\/review\s*$/.test(text.trim())) return false
  const { commands } = await core.listCommands()
  return !commands.some((c) => c.name === REVIEW_COMMAND.name && c.source !== "builtin")
}

/** The message /review answers with: per file its status and hunks, then the unified diff. */
export async function reviewMessage(core: AgentCore, taskId: string | undefined): Promise<string> {
  if (!taskId) return "Nothing to review: this session has no task yet."
  const folder = core.workspaceFolders[0] ?? "/"
  const shown = (path: string) => relative(folder, path)
  const { files } = await core.review.list(taskId)
  if (files.length === 0) return "Nothing left to review: every change of this task was kept or rejected."
  const lines = files.map((f) => {
    const path = shown(fileURLToPath(f.uri))
    return `- ${path}: ${f.status}${f.byCommand ? " by a command" : ""}, ${f.hunks.length} change(s)`
  })
  const diff = await core.review.diff(taskId, shown)
  return [`Unreviewed changes of this task (${files.length} file(s)):`, ...lines, "", "```diff", diff.trimEnd(), "```"].join("\n")
}
