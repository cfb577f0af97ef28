import { CheckpointService, type CheckpointInfo, type RestoredFile } from "./service"
import type { CheckpointRecord } from "./store"
import { UnknownCheckpointError } from "./errors"

export interface CheckpointRegistryOptions {
  stateDir: string
  /** The workspace folders (absolute); one shadow repository each. */
  folders: () => readonly string[]
  /** settings.checkpoints, read on every call so changes apply at once. */
  settings: () => { checkpoints: { enabled: boolean; maxFileBytes: number } }
}

/** Where a checkpoint is requested from: the task, its folder, and the turn the call belongs to. */
export interface CheckpointTrigger {
  taskId: string
  /** The task's workspace folder; default: the first folder. */
  folder?: string
  /**
   * Identifies the assistant turn: a number that changes between turns, or an object that is new each
   * turn (the pipeline's TurnState). Only the first destructive call of a turn takes a checkpoint.
   */
  turn: number | object
  callId?: string
}

/**
 * The checkpoints of every workspace folder, as the core and the pipeline hook use them. Takes at most one
 * checkpoint per task turn before a destructive tool, and one when the user sends a message.
 */
export class CheckpointRegistry {
  private readonly services = new Map<string, CheckpointService>()
  private readonly lastTurn = new Map<string, number | object>()
  /** Turns seen per task, numbering object turn keys for the records. */
  private readonly turnCount = new Map<string, number>()

  constructor(private readonly options: CheckpointRegistryOptions) {}

  /** The pipeline's beforeDestructive hook: a checkpoint before the turn's first destructive call, else undefined. */
  async beforeTool(trigger: CheckpointTrigger & { tool: string }): Promise<CheckpointInfo | undefined> {
    if (!this.enabled() || this.lastTurn.get(trigger.taskId) === trigger.turn) return undefined
    return this.take(trigger, `before ${trigger.tool}`)
  }

  /** When the user sends a message to a task (before the loop continues). */
  async onUserMessage(trigger: CheckpointTrigger): Promise<CheckpointInfo | undefined> {
    if (!this.enabled()) return undefined
    return this.take(trigger, "before the user's message")
  }

  private take(trigger: CheckpointTrigger, label: string): Promise<CheckpointInfo> {
    const count = (this.turnCount.get(trigger.taskId) ?? 0) + 1
    this.turnCount.set(trigger.taskId, count)
    this.lastTurn.set(trigger.taskId, trigger.turn)
    const turn = typeof trigger.turn === "number" ? trigger.turn : count
    return this.serviceFor(trigger.folder).create({ taskId: trigger.taskId, turn, callId: trigger.callId, label })
  }

  /** Stages the folder in the background (see CheckpointService.warm); call when a task starts. */
  async warm(folder?: string): Promise<void> {
    if (this.enabled()) await this.serviceFor(folder).warm()
  }

  /** agent/listCheckpoints: the task's checkpoints in every folder, oldest first. */
  async list(taskId: string): Promise<CheckpointInfo[]> {
    const all = await Promise.all(this.options.folders().map((f) => this.serviceFor(f).list(taskId)))
    return all.flat().sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  }

  /** A deleted task's checkpoints, in every folder, are forgotten. */
  async forgetTask(taskId: string): Promise<void> {
    this.lastTurn.delete(taskId)
    this.turnCount.delete(taskId)
    await Promise.all(this.options.folders().map((f) => this.serviceFor(f).forgetTask(taskId)))
  }

  /** The record (task, turn, call) behind a checkpoint id, e.g. to rewind the conversation. */
  async find(id: string): Promise<CheckpointRecord | undefined> {
    return (await this.locate(id))?.record
  }

  /** agent/diffCheckpoint. */
  async diff(id: string, toId?: string): Promise<string> {
    return (await this.require(id)).service.diff(id, toId)
  }

  /**
   * The task's first checkpoint (its start, as far as checkpoints know it) and every file that differs
   * from it now; undefined when checkpoints are off or the task has none yet.
   */
  async changesSinceTaskStart(taskId: string): Promise<{ path: string; before: string | undefined; binary: boolean }[] | undefined> {
    if (!this.enabled()) return undefined
    for (const folder of this.options.folders()) {
      const service = this.serviceFor(folder)
      const first = (await service.list(taskId))[0]
      if (first) return service.changesSince(first.id)
    }
    return undefined
  }

  /** agent/restoreCheckpoint: restores disk; the core pushes each file's text into open buffers. */
  async restore(id: string): Promise<RestoredFile[]> {
    return (await this.require(id)).service.restore(id)
  }

  serviceFor(folder: string | undefined): CheckpointService {
    const workspace = folder ?? this.options.folders()[0]
    if (!workspace) throw new Error("No workspace folder is open, so there is nothing to checkpoint.")
    let service = this.services.get(workspace)
    if (!service) {
      service = new CheckpointService({
        workspace,
        stateDir: this.options.stateDir,
        maxFileBytes: () => this.options.settings().checkpoints.maxFileBytes,
      })
      this.services.set(workspace, service)
    }
    return service
  }

  private enabled(): boolean {
    return this.options.settings().checkpoints.enabled
  }

  private async locate(id: string): Promise<{ service: CheckpointService; record: CheckpointRecord } | undefined> {
    for (const folder of this.options.folders()) {
      const service = this.serviceFor(folder)
      const record = await service.find(id)
      if (record) return { service, record }
    }
    return undefined
  }

  private async require(id: string): Promise<{ service: CheckpointService; record: CheckpointRecord }> {
    const found = await this.locate(id)
    if (!found) throw new UnknownCheckpointError(id)
    return found
  }
}
