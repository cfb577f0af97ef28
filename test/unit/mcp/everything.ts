import { fileURLToPath } from "node:url"

/** Path of the real MCP test server from npm (devDependency @modelcontextprotocol/server-everything). */
export const EVERYTHING = fileURLToPath(
  new URL("../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url),
)

/**
 * A stdio server entry that runs server-everything and writes its pid to `pidFile` first (`exec` keeps
 * the pid), so tests can see whether it started and can kill it.
 */
export function everythingServer(pidFile: string, extra: { timeout?: number; alwaysAllow?: string[] } = {}) {
  return {
    command: "sh",
    args: ["-c", `echo $$ > '${pidFile}'; exec '${process.execPath}' '${EVERYTHING}' stdio`],
    ...extra,
  }
}
