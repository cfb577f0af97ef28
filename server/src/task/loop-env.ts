import type { TaskBrowsers } from "../browser/registry"
import type { ModeLookup } from "../modes/registry"
import type { ModelProvider } from "../model/provider"
import type { BackgroundCommands } from "../terminal/background"
import type { TaskControl } from "../tools/context"
import { gatedAsk } from "./ask-gate"
import type { LoopEnv } from "./loop"
import type { TaskRuntime } from "./runtime"
import { notification } from "./task-hooks"
import type { TaskModels } from "./task-models"
import type { TaskRegistry } from "./task-registry"
import type { TaskServiceOptions } from "./task-service"

/** What every task's loop of one service shares. */
export interface SharedLoopParts {
  deps: TaskServiceOptions
  modes: ModeLookup
  /** One provider per API endpoint (the service's), unless the options inject one for every model. */
  providers: LoopEnv["providerFor"]
  models: TaskModels
  tasks: TaskRegistry
  background: BackgroundCommands
  browsers: TaskBrowsers
}

/**
 * What one task's loop gets from the service: the service's ports, the model the user chose for it (or
 * for its nearest parent), its gated asking (the Notification hook runs when it asks), and `control`,
 * what its meta tools may do.
 */
export function loopEnvFor(rt: TaskRuntime, shared: SharedLoopParts, control: TaskControl): LoopEnv {
  const { deps, models, tasks } = shared
  const injected: ModelProvider | undefined = deps.modelProvider
  return {
    settings: deps.settings,
    modelOverride: () => models.of(rt.taskId, (id) => tasks.parentOf(id)),
    workspaceFolders: deps.workspaceFolders,
    providerFor: injected ? () => injected : shared.providers,
    modes: shared.modes,
    editor: deps.editor,
    ask: gatedAsk(rt, deps.ask, (type, message, signal) =>
      notification(rt, deps.settings(), rt.state.folder || (deps.workspaceFolders()[0] ?? process.cwd()), type, message, signal),
    ),
    mcp: deps.mcp,
    codebaseIndexes: deps.codebaseIndexes,
    diagnostics: deps.diagnostics,
    language: deps.language,
    terminal: deps.terminal,
    background: shared.background,
    browsers: shared.browsers,
    control,
    beforeFirstRequest: deps.beforeFirstRequest,
    environment: deps.environment,
    warn: (message) => deps.log.warn(message),
  }
}
