/** Where a server's log messages (notifications/message) go: our log, which filters by agent.log.level. */
export interface McpLog {
  error(message: string): void
  warn(message: string): void
  info(message: string): void
  debug(message: string): void
}

export type OurLogLevel = "error" | "warn" | "info" | "debug"

/** The level sent with logging/setLevel for agent.log.level: the server sends no more than we would write. */
export const MCP_LEVEL_FOR: Record<OurLogLevel, "error" | "warning" | "info" | "debug"> = {
  error: "error",
  warn: "warning",
  info: "info",
  debug: "debug",
}

/** MCP's eight syslog levels as our four. */
const OURS: Record<string, OurLogLevel> = {
  debug: "debug",
  info: "info",
  notice: "info",
  warning: "warn",
  error: "error",
  critical: "error",
  alert: "error",
  emergency: "error",
}

const MAX_CHARS = 2000

/** Writes one server log message to our log, bounded and on one line. */
export function logServerMessage(log: McpLog, server: string, params: { level?: string; logger?: string; data?: unknown }): void {
  const data = typeof params.data === "string" ? params.data : JSON.stringify(params.data)
  const text = (data ?? "").replace(/[\r\n]+/g, " ").slice(0, MAX_CHARS)
  log[OURS[params.level ?? ""] ?? "info"](`MCP ${server}${params.logger ? ` (${params.logger})` : ""}: ${text}`)
}
