import { appendFileSync } from "node:fs"
import type { Connection } from "vscode-languageserver/node"
import { redactSecrets } from "../config/redact"
import type { Logger } from "../task/service"

const LEVELS = { error: 0, warn: 1, info: 2, debug: 3 } as const
type Level = keyof typeof LEVELS

/**
 * Logs to window/logMessage (filtered by agent.log.level) and, when set, appends to agent.log.file.
 * Every line is redacted first: the API key and auth headers never reach a log.
 */
export function createLogger(connection: Connection, logSettings: () => { level: Level; file?: string }): Logger {
  const write = (level: Level, message: string) => {
    const current = logSettings()
    if (LEVELS[level] > LEVELS[current.level]) return
    const line = redactSecrets(message)
    const type = { error: 1, warn: 2, info: 3, debug: 4 }[level]
    connection.sendNotification("window/logMessage", { type, message: line })
    if (current.file) {
      try {
        appendFileSync(current.file, `${new Date().toISOString()} ${level.toUpperCase()} ${line}\n`, { mode: 0o600 })
      } catch {
        // A broken log file must not break the server; the editor still gets the message.
      }
    }
  }
  return {
    error: (m) => write("error", m),
    warn: (m) => write("warn", m),
    info: (m) => write("info", m),
    debug: (m) => write("debug", m),
  }
}
