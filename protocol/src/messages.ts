import type { z } from "zod"
import {
  CancelTask,
  DiffCheckpoint,
  GetTask,
  IndexStatus,
  ListCheckpoints,
  ListCommands,
  ListMcpServers,
  ListModes,
  ListSkills,
  ListTasks,
  NewTask,
  Respond,
  RestoreCheckpoint,
  ResumeTask,
  ReviewChanges,
  ReviewDecide,
  SendMessage,
  SetMode,
  SetPermissionMode,
} from "./client-requests"
import type { MethodTriple } from "./method-triple"
import type { AgentMethods } from "./names"
import { AskFollowup, Diagnostics, LanguageFeature, RequestApproval, SaveDocuments, TaskUpdateNotification } from "./server-requests"

export * from "./client-requests"
export { CheckpointId, LocalUri, type MethodTriple } from "./method-triple"
export * from "./server-requests"

/** Every method of the contract, keyed like AgentMethods. */
export const AgentProtocol = {
  newTask: NewTask,
  sendMessage: SendMessage,
  cancelTask: CancelTask,
  resumeTask: ResumeTask,
  respond: Respond,
  listTasks: ListTasks,
  getTask: GetTask,
  listModes: ListModes,
  setMode: SetMode,
  listMcpServers: ListMcpServers,
  listCheckpoints: ListCheckpoints,
  diffCheckpoint: DiffCheckpoint,
  restoreCheckpoint: RestoreCheckpoint,
  indexStatus: IndexStatus,
  listSkills: ListSkills,
  listCommands: ListCommands,
  setPermissionMode: SetPermissionMode,
  reviewChanges: ReviewChanges,
  reviewDecide: ReviewDecide,
  taskUpdate: TaskUpdateNotification,
  requestApproval: RequestApproval,
  askFollowup: AskFollowup,
  saveDocuments: SaveDocuments,
  diagnostics: Diagnostics,
  languageFeature: LanguageFeature,
} as const satisfies Record<keyof typeof AgentMethods, MethodTriple<string, z.ZodType, z.ZodType>>

export type ParamsOf<K extends keyof typeof AgentProtocol> = z.infer<(typeof AgentProtocol)[K]["params"]>
export type ResultOf<K extends keyof typeof AgentProtocol> = z.infer<(typeof AgentProtocol)[K]["result"]>
