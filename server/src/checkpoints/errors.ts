/**
 * A checkpoint id that names no checkpoint of this workspace. A bad request parameter, not a failure of the
 * server: the LSP front answers it with InvalidParams naming the id.
 */
export class UnknownCheckpointError extends Error {
  constructor(readonly id: string) {
    super(`id: there is no checkpoint "${id}" in this workspace; list them with agent/listCheckpoints.`)
    this.name = "UnknownCheckpointError"
  }
}
