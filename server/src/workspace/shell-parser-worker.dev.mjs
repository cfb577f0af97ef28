// The shell parser thread's entry when the server runs from its TypeScript sources (tests, benches under
// tsx): a worker thread does not inherit tsx's loader, so it registers it before loading the real entry.
import { register } from "tsx/esm/api"

register()
await import("./shell-parser-worker.ts")
