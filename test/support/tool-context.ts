import { localTerminal } from "../../server/src/terminal/local-terminal"
import type { Todo } from "@agent-lsp/protocol"
import type { TaskEvent } from "../../server/src/task/events"
import { defaultSettings, type Settings } from "../../server/src/config/schema"
import type { TaskControl, ToolContext } from "../../server/src/tools/context"
import { FakeAsk } from "./fake-ask"
import { FakeEditor } from "./fake-editor"

/** Records what meta tools asked of the task. */
export class FakeTaskControl implements TaskControl {
  taskId = "t1"
  mode = "code"
  todos: Todo[] | undefined
  completedWith: string | undefined
  modeSwitches: { slug: string; reason: string }[] = []
  subtasks: { mode: string; message: string; todos?: Todo[] }[] = []
  subtaskResult = "subtask done"
  slugs = ["code", "architect", "ask", "debug", "orchestrator"]
  modeSlugs() {
    return this.slugs
  }
  async switchMode(slug: string, reason: string) {
    this.modeSwitches.push({ slug, reason })
    this.mode = slug
  }
  setTodos(todos: Todo[]) {
    this.todos = todos
  }
  async startSubtask(mode: string, message: string, todos: Todo[] | undefined) {
    this.subtasks.push({ mode, message, todos })
    return this.subtaskResult
  }
  complete(result: string) {
    this.completedWith = result
  }
}

import { BackgroundCommands } from "../../server/src/terminal/background"
import { TaskBrowsers } from "../../server/src/browser/registry"

export interface TestToolContext extends ToolContext {
  editor: FakeEditor
  ask: FakeAsk
  task: FakeTaskControl
  updates: TaskEvent[]
}

/** A ToolContext over fakes, rooted at `root`; override anything. */
export function makeToolContext(
  root: string,
  overrides: Partial<Omit<TestToolContext, "settings">> & { settings?: Partial<Settings> } = {},
): TestToolContext {
  const updates: TaskEvent[] = []
  const { settings, ...rest } = overrides
  return {
    workspaceFolders: [root],
    settings: { ...defaultSettings(), ...settings },
    mode: "code",
    taskId: "t1",
    callId: "call_1",
    editor: new FakeEditor(),
    terminal: localTerminal,
    ask: new FakeAsk(),
    task: new FakeTaskControl(),
    background: new BackgroundCommands(),
    browsers: new TaskBrowsers(),
    signal: new AbortController().signal,
    emit: (update) => updates.push(update),
    updates,
    ...rest,
  }
}
