import { localTerminal } from "../../../server/src/terminal/local-terminal"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { TaskStatus } from "@agent-lsp/protocol"
import { afterEach } from "vitest"
import type { TaskEvent } from "../../../server/src/task/events"
import { defaultSettings, type Settings } from "../../../server/src/config/schema"
import type { ModelProvider } from "../../../server/src/model/provider"
import { ModeRegistry } from "../../../server/src/modes/registry"
import { createTaskService } from "../../../server/src/task/index"
import type { EnvironmentPort } from "../../../server/src/task/environment"
import type { TaskService } from "../../../server/src/task/service"
import { FakeAsk } from "../../support/fake-ask"
import { FakeEditor } from "../../support/fake-editor"
import { ScriptedModel, type ScriptedTurn } from "../../support/scripted-model"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

export interface Fixture {
  ws: TempWorkspace
  stateDir: string
  service: TaskService
  model: ScriptedModel
  ask: FakeAsk
  editor: FakeEditor
  settings: Settings
  /** Every event, in order, with its task id. */
  events: { taskId: string; update: TaskEvent }[]
  updatesOf(taskId: string): TaskEvent[]
  /** Resolves when the task reports this status (now or later). */
  status(taskId: string, status: TaskStatus): Promise<void>
  cleanup(): Promise<void>
}

export interface FixtureOptions {
  files?: Record<string, string>
  turns?: ScriptedTurn[]
  provider?: ModelProvider
  settings?: (s: Settings) => void
  stateDir?: string
  ws?: TempWorkspace
  environment?: EnvironmentPort
}

/** A TaskService over a real temp workspace and state directory, the real pipeline and tools, a scripted model. */
export async function makeFixture(options: FixtureOptions = {}): Promise<Fixture> {
  const ws = options.ws ?? (await tempWorkspace(options.files ?? {}))
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "agent-lsp-state-"))
  const settings = defaultSettings()
  options.settings?.(settings)
  const model = new ScriptedModel(options.turns ?? [])
  const ask = new FakeAsk()
  const editor = new FakeEditor()
  const events: Fixture["events"] = []
  const waiters: { taskId: string; status: TaskStatus; resolve: () => void }[] = []
  const service = createTaskService({
    workspaceFolders: () => [ws.root],
    settings: () => settings,
    editor,
    ask,
    terminal: localTerminal,
    log: { error: () => {}, warn: () => {}, info: () => {}, debug: () => {} },
    stateDir,
    modelProvider: options.provider ?? model,
    ...(options.environment ? { environment: options.environment } : {}),
    // No global modes file: the user's own custom modes must not change what tests see.
    modes: new ModeRegistry({ workspaceFolders: () => [ws.root], globalConfigDir: null }),
  })
  service.onEvent((taskId, update) => {
    events.push({ taskId, update })
    if (update.kind !== "status") return
    for (const w of [...waiters])
      if (w.taskId === taskId && w.status === update.status) {
        waiters.splice(waiters.indexOf(w), 1)
        w.resolve()
      }
  })
  const fixture: Fixture = {
    ws,
    stateDir,
    service,
    model,
    ask,
    editor,
    settings,
    events,
    updatesOf: (taskId) => events.filter((e) => e.taskId === taskId).map((e) => e.update),
    async status(taskId, status) {
      const current = (await service.listTasks()).find((t) => t.taskId === taskId)?.status
      if (current === status) return
      await new Promise<void>((resolve) => waiters.push({ taskId, status, resolve }))
    },
    async cleanup() {
      await service.dispose()
      if (!options.ws) await ws.cleanup()
      if (!options.stateDir) rmSync(stateDir, { recursive: true, force: true })
    },
  }
  return fixture
}

/** The text of every text block and tool result of a request's messages, for assertions. */
export function requestText(request: { messages: { content: unknown[] }[] }): string {
  return JSON.stringify(request.messages)
}

/** makeFixture for a test file: every fixture it makes is cleaned up after each test (newest first). */
export function fixturesCleanedAfterEach(): (...args: Parameters<typeof makeFixture>) => Promise<Fixture> {
  const fixtures: Fixture[] = []
  afterEach(async () => {
    for (const fx of fixtures.reverse()) await fx.cleanup()
    fixtures.length = 0
  })
  return async (...args) => {
    const fx = await makeFixture(...args)
    fixtures.push(fx)
    return fx
  }
}
