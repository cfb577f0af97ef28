import { appendFileSync } from "node:fs"
import { redactSecrets } from "../config/redact"
import type { Logger } from "../task/service"

export type LogLevel = "error" | "warn" | "info" | "debug"
const LEVELS: Record<LogLevel, number> = { error: 0, warn: 1, info: 2, debug: 3 }

/** Whether a line of `level` passes a filter set to `threshold` (error < warn < info < debug). */
export function passesLevel(level: LogLevel, threshold: LogLevel): boolean {
  return LEVELS[level] <= LEVELS[threshold]
}

/** Where a front shows log lines (LSP: window/logMessage; ACP and CLI: stderr). Gets redacted lines only. */
export type LogSink = (level: LogLevel, line: string) => void

/**
 * A logger filtered by agent.log.level that hands each line to the front's sink and, when set, appends it
 * to agent.log.file. Every line is redacted first: the API key and auth headers never reach a log.
 */
export function createLogger(sink: LogSink, logSettings: () => { level: LogLevel; file?: string }): Logger {
  const write = (level: LogLevel, message: string) => {
    const current = logSettings()
    if (!passesLevel(level, current.level)) return
    const line = redactSecrets(message)
    sink(level, line)
    if (current.file) {
      try {
        appendFileSync(current.file, `${new Date().toISOString()} ${level.toUpperCase()} ${line}\n`, { mode: 0o600 })
      } catch {
        // A broken log file must not break the server; the front still shows the line.
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
