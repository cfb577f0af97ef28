export { CheckpointRegistry, type CheckpointRegistryOptions, type CheckpointTrigger } from "./registry"
export { CheckpointService, type CheckpointInfo, type CheckpointRequest, type RestoredFile } from "./service"
export type { CheckpointRecord } from "./store"
