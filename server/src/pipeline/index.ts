/** The tool pipeline: every tool call the model makes goes through createToolPipeline(...).run(). */
export { createToolPipeline } from "./create-pipeline"
export { toolSpec, paramsShape } from "./json-schema"
export { msg as pipelineMessages } from "./messages"
export { callKey, canonicalJson, RepetitionTracker } from "./repetition"
export * from "./types"
