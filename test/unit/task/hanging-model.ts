import type { ModelEvent, ModelProvider, ModelRequest } from "../../../server/src/model/provider"

/**
 * A model that starts a reply (optional text) and then never finishes it until the request is aborted,
 * like a slow stream. Records requests and counts aborts.
 */
export class HangingModel implements ModelProvider {
  readonly requests: ModelRequest[] = []
  aborted = 0
  constructor(private readonly firstText = "") {}

  async *stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent> {
    this.requests.push(structuredClone(request))
    if (this.firstText) yield { kind: "text", delta: this.firstText }
    await new Promise<void>((resolve) => {
      if (signal.aborted) return resolve()
      signal.addEventListener("abort", () => resolve(), { once: true })
    })
    this.aborted++
  }
}
