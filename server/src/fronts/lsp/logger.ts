import type { Connection } from "vscode-languageserver/node"
import { createLogger, type LogLevel } from "../../core/logger"
import type { Logger } from "../../task/service"

const MESSAGE_TYPE: Record<LogLevel, number> = { error: 1, warn: 2, info: 3, debug: 4 }

/** The core logger with window/logMessage as its sink. */
export function createLspLogger(connection: Connection, logSettings: () => { level: LogLevel; file?: string }): Logger {
  return createLogger(
    (level, line) => void connection.sendNotification("window/logMessage", { type: MESSAGE_TYPE[level], message: line }),
    logSettings,
  )
}
