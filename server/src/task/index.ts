export { createTaskService, type TaskServiceOptions } from "./task-service"
export { TaskRequestError, type TaskService, type TaskServiceDeps, type Logger } from "./service"
export type { TaskEvent, TaskEventListener } from "./events"
export type { ImageBlock } from "../model/provider"
