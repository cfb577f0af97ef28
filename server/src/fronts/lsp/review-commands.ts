import { mkdir, writeFile } from "node:fs/promises"
import { join, relative } from "node:path"
import { pathToFileURL } from "node:url"
import { AgentCommands, AgentProtocol, type ResultOf } from "@agent-lsp/protocol"
import { ErrorCodes, MessageType, ResponseError, type Connection } from "vscode-languageserver/node"
import { z } from "zod"
import type { AgentCore } from "../../core/agent-core"
import type { TaskEvent } from "../../task/events"
import { runAgentRequest } from "./agent-requests"
import type { ClientFeatures } from "./client-features"
import { parseCommandArgs as parse, type CommandHandler } from "./commands"
import { PublishedDiagnostics } from "./published-diagnostics"
import { ReviewDiagnostics } from "./review-front"

export interface LspReviewDeps {
  connection: Connection
  features: () => ClientFeatures
  core: () => Promise<AgentCore>
  folders: () => readonly string[]
  stateDir: () => string
}

const optionalTaskId = z.string().min(1).optional()
const Target = z
  .object({ hunkId: z.string().min(1).optional(), uri: z.string().min(1).optional() })
  .refine((t) => !!t.hunkId !== !!t.uri, "name exactly one of hunkId or uri")
const Args = { target: z.tuple([Target, optionalTaskId]), taskOnly: z.tuple([optionalTaskId]) }

/**
 * The LSP side of the review: agent/reviewChanges and agent/reviewDecide, the agent.review.* commands, and
 * the hint diagnostics, code actions and code lenses (ReviewDiagnostics), refreshed on each `review` update.
 */
export class LspReview {
  readonly shown: ReviewDiagnostics

  constructor(private readonly deps: LspReviewDeps) {
    this.shown = new ReviewDiagnostics(new PublishedDiagnostics(deps.connection))
  }

  /** Every task event of the core: a `review` update refreshes what the editor shows. */
  onEvent(taskId: string, event: TaskEvent): void {
    if (event.kind === "review") void this.refresh(taskId).catch(() => undefined)
  }

  private async refresh(taskId: string): Promise<void> {
    const core = await this.deps.core()
    const { files } = await core.review.list(taskId)
    const title = (await core.tasks.listTasks()).find((t) => t.taskId === taskId)?.title ?? taskId
    this.shown.show(taskId, title, files)
  }

  /** agent/reviewChanges and agent/reviewDecide; undefined for other methods. */
  request(method: string, raw: unknown): Promise<unknown> | undefined {
    if (method === AgentProtocol.reviewChanges.method)
      return runAgentRequest(AgentProtocol.reviewChanges, raw, async ({ taskId }) => (await this.deps.core()).review.list(taskId))
    if (method === AgentProtocol.reviewDecide.method)
      return runAgentRequest(AgentProtocol.reviewDecide, raw, async ({ taskId, decisions }) => {
        const bad = decisions.findIndex((d) => [d.hunkId, d.uri, d.all].filter((x) => x !== undefined).length !== 1)
        if (bad >= 0)
          throw new ResponseError(ErrorCodes.InvalidParams, `decisions[${bad}] must name exactly one of hunkId, uri or all: true.`)
        return (await this.deps.core()).review.decide(taskId, decisions)
      })
    return undefined
  }

  /** The agent.review.* commands. */
  commands(): Record<string, CommandHandler> {
    const decide = async (taskId: string | undefined, decision: object, action: "keep" | "reject") => {
      const id = await this.taskId(taskId)
      const result = await (await this.deps.core()).review.decide(id, [{ ...decision, action }])
      this.tell(summary(result))
      return result
    }
    return {
      [AgentCommands.reviewKeep]: async (args) => {
        const [target, taskId] = parse(AgentCommands.reviewKeep, Args.target, args)
        return decide(taskId, target, "keep")
      },
      [AgentCommands.reviewReject]: async (args) => {
        const [target, taskId] = parse(AgentCommands.reviewReject, Args.target, args)
        return decide(taskId, target, "reject")
      },
      [AgentCommands.reviewKeepAll]: async (args) =>
        decide(parse(AgentCommands.reviewKeepAll, Args.taskOnly, args)[0], { all: true }, "keep"),
      [AgentCommands.reviewRejectAll]: async (args) =>
        decide(parse(AgentCommands.reviewRejectAll, Args.taskOnly, args)[0], { all: true }, "reject"),
      [AgentCommands.reviewUndoReject]: async (args) => {
        const id = await this.taskId(parse(AgentCommands.reviewUndoReject, Args.taskOnly, args)[0])
        const result = await (await this.deps.core()).review.undoReject(id).catch((e: Error) => {
          throw new ResponseError(ErrorCodes.InvalidRequest, e.message)
        })
        this.tell(
          `agent: undo reject: ${result.restored.length} file(s) restored${result.failed.map((f) => `; ${f.uri}: ${f.reason}`).join("")}`,
        )
        return result
      },
      [AgentCommands.reviewOpen]: async (args) => this.open(await this.taskId(parse(AgentCommands.reviewOpen, Args.taskOnly, args)[0])),
    }
  }

  /** Writes the task's unreviewed changes as one diff file and shows it (or names its path). */
  private async open(taskId: string): Promise<{ uri: string; path: string }> {
    const folder = this.deps.folders()[0] ?? "/"
    const diff = await (await this.deps.core()).review.diff(taskId, (p) => relative(folder, p))
    const dir = join(this.deps.stateDir(), "reviews")
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const path = join(dir, `${encodeURIComponent(taskId)}.diff`)
    await writeFile(path, diff || `# Task ${taskId}: nothing left to review.\n`, { mode: 0o600 })
    const uri = pathToFileURL(path).toString()
    if (this.deps.features().showDocument) await this.deps.connection.sendRequest("window/showDocument", { uri, takeFocus: true })
    else this.tell(`agent: the changes of task ${taskId} to review: ${path}`)
    return { uri, path }
  }

  private async taskId(given: string | undefined): Promise<string> {
    const id = given ?? (await this.deps.core()).tasks.activeTaskId()
    if (!id) throw new ResponseError(ErrorCodes.InvalidRequest, "There is no task yet, so nothing to review.")
    return id
  }

  private tell(message: string): void {
    void this.deps.connection.sendNotification("window/showMessage", { type: MessageType.Info, message })
  }
}

/** One line for the user about a decision. */
function summary(result: ResultOf<"reviewDecide">): string {
  const parts = [`agent: kept ${result.kept}, rejected ${result.rejected} change(s)`]
  for (const f of result.failed) parts.push(`not done${f.uri ? ` (${f.uri})` : f.hunkId ? ` (${f.hunkId})` : ""}: ${f.reason}`)
  for (const uri of result.droppedUserEdits ?? [])
    parts.push(`your own typing in ${uri} went with the rejected change (agent.review.undoReject brings it back)`)
  for (const p of result.problems ?? []) parts.push(`new ${p.severity} at ${p.uri}:${p.line}: ${p.message}`)
  return parts.join("; ")
}
