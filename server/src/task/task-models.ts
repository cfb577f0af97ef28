import type { ModelOverride } from "./model-for-mode"

/**
 * The model the user chose per task (ACP's model config option), in memory: the front that offers the
 * choice remembers it with its session and sets it again for a task loaded from disk. A subtask uses the
 * choice of the nearest ancestor that has one.
 */
export class TaskModels {
  private readonly chosen = new Map<string, ModelOverride>()

  set(taskId: string, model: ModelOverride | undefined): void {
    if (model) this.chosen.set(taskId, model)
    else this.chosen.delete(taskId)
  }

  /** The task's own choice, else its nearest ancestor's (`parentOf` walks the task tree). */
  of(taskId: string, parentOf: (taskId: string) => string | undefined): ModelOverride | undefined {
    for (let id: string | undefined = taskId; id; id = parentOf(id)) {
      const model = this.chosen.get(id)
      if (model) return model
    }
    return undefined
  }
}
