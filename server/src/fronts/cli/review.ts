import { realpathSync } from "node:fs"
import { relative, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
import { DiskEditorPort } from "../../core/disk-editor"
import type { LogSink } from "../../core/logger"
import type { AskPort } from "../../tools/context"

export const REVIEW_USAGE = `Usage: agent-lsp review [taskId] [--keep-all | --reject-all | --reject FILE ...]

Prints what the task changed that nobody has kept or rejected yet, as a unified diff (baseline → now),
on standard output. Without taskId: the most recent task of the current directory.

  --keep-all       keep every change (they leave the review; the files stay as they are)
  --reject-all     reject every change: the text before the task is written back, new files are deleted
                   (unless edited since), deleted files are restored
  --reject FILE    reject every change of FILE (repeatable)
  -h, --help       print this help

Exit status: 0 done, 1 a decision failed (each failure is printed), 2 bad usage or no such task.`

type ReviewArgs = { taskId?: string; keepAll: boolean; rejectAll: boolean; reject: string[] }

export function parseReviewArgs(argv: readonly string[]): ReviewArgs | "help" | { error: string } {
  const args: ReviewArgs = { keepAll: false, rejectAll: false, reject: [] }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!
    if (arg === "-h" || arg === "--help") return "help"
    else if (arg === "--keep-all") args.keepAll = true
    else if (arg === "--reject-all") args.rejectAll = true
    else if (arg === "--reject") {
      const file = argv[++i]
      if (!file) return { error: "--reject needs a file" }
      args.reject.push(file)
    } else if (arg.startsWith("-")) return { error: `unknown option ${arg}` }
    else if (args.taskId) return { error: `one task at a time (got ${args.taskId} and ${arg})` }
    else args.taskId = arg
  }
  if ([args.keepAll, args.rejectAll, args.reject.length > 0].filter(Boolean).length > 1)
    return { error: "choose one of --keep-all, --reject-all, --reject FILE" }
  return args
}

/** Headless questions: the review never asks anything. */
const NOBODY: AskPort = {
  approve: async () => ({ decision: "noAnswer", reason: "unavailable" }),
  ask: async () => ({ decision: "noAnswer", reason: "unavailable" }),
}

/** `agent-lsp review`: prints the task's unreviewed changes, or keeps or rejects them; resolves with the exit code. */
export async function runReview(
  argv: readonly string[],
  options: { globalSettingsFile?: string; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<number> {
  const { stdout, stderr } = options
  const parsed = parseReviewArgs(argv)
  if (parsed === "help") return stdout.write(`${REVIEW_USAGE}\n`), 0
  if ("error" in parsed) return stderr.write(`agent-lsp review: ${parsed.error}\n\n${REVIEW_USAGE}\n`), 2
  const folder = realpathSync(process.cwd())
  const sink: LogSink = (level, line) => {
    if (level === "error" || level === "warn") stderr.write(`agent-lsp: ${line}\n`)
  }
  const { openStandaloneCore } = await import("../../core/standalone")
  const { localTerminal } = await import("../../terminal/local-terminal")
  const { core } = await openStandaloneCore({
    folder,
    editor: new DiskEditorPort(),
    ask: NOBODY,
    terminal: localTerminal,
    sink,
    globalSettingsFile: options.globalSettingsFile,
  })
  try {
    const tasks = await core.tasks.listTasks()
    const taskId = parsed.taskId ?? tasks.filter((t) => !t.parentId).sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))[0]?.taskId
    if (!taskId || !tasks.some((t) => t.taskId === taskId)) {
      stderr.write(`agent-lsp review: ${taskId ? `no task ${taskId} in ${folder}` : `no task in ${folder} yet`}.\n`)
      return 2
    }
    const decisions: ParamsOf<"reviewDecide">["decisions"] = parsed.keepAll
      ? [{ all: true, action: "keep" }]
      : parsed.rejectAll
        ? [{ all: true, action: "reject" }]
        : parsed.reject.map((file) => ({ uri: pathToFileURL(resolve(folder, file)).toString(), action: "reject" as const }))
    if (decisions.length === 0) {
      stdout.write(await core.review.diff(taskId, (p) => relative(folder, p)))
      return 0
    }
    const result = await core.review.decide(taskId, decisions)
    stderr.write(report(result))
    return result.failed.length > 0 ? 1 : 0
  } finally {
    await core.dispose()
  }
}

function report(result: ResultOf<"reviewDecide">): string {
  const lines = [`kept ${result.kept}, rejected ${result.rejected} change(s)`]
  for (const f of result.failed) lines.push(`not done: ${f.uri ?? f.hunkId ?? ""}: ${f.reason}`)
  for (const p of result.problems ?? []) lines.push(`new ${p.severity} at ${p.uri}:${p.line}: ${p.message}`)
  return `${lines.map((l) => `agent-lsp review: ${l}`).join("\n")}\n`
}
