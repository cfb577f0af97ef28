import { ALL_TOOLS, TOOL_ALIASES } from "../tools/registry"
import { createPipelineWith } from "./create-pipeline"
import type { ToolPipeline, ToolPipelineOptions } from "./types"

/**
 * The tool pipeline for one task: every tool call the model makes goes through its run(). Tools default
 * to the registry's ALL_TOOLS and aliases to TOOL_ALIASES.
 */
export function createToolPipeline(options: ToolPipelineOptions): ToolPipeline {
  return createPipelineWith({ ...options, tools: options.tools ?? ALL_TOOLS, aliases: options.aliases ?? TOOL_ALIASES })
}

export { createPipelineWith } from "./create-pipeline"
export { toolSpec, paramsShape } from "./json-schema"
export { msg as pipelineMessages } from "./messages"
export { callKey, canonicalJson, RepetitionTracker } from "./repetition"
export * from "./types"
