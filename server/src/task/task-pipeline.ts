import type { ModeLookup } from "../modes/registry"
import { createToolPipeline } from "../pipeline/index"
import type { ToolPipeline } from "../pipeline/types"
import type { TaskServiceOptions } from "./task-service"

/** A task's tool pipeline: the injected factory's (tests), else createToolPipeline with the service's options. */
export function pipelineFor(
  deps: Pick<TaskServiceOptions, "pipelineFactory" | "pipelineOptions" | "settings" | "workspaceFolders">,
  modes: ModeLookup,
  task: { taskId: string; folder: string },
): ToolPipeline {
  if (deps.pipelineFactory) return deps.pipelineFactory(task)
  return createToolPipeline({
    settings: deps.settings,
    modes,
    availability: () => ({
      settings: deps.settings(),
      workspaceFolders: deps.workspaceFolders(),
      mcpServerNames: [],
      hasCodebaseIndex: false,
      hasBrowser: false,
    }),
    ...deps.pipelineOptions,
  })
}
