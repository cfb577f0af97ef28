import { fileURLToPath } from "node:url"
import { afterAll, beforeAll } from "vitest"
import { McpHub } from "../../../server/src/mcp/hub"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"

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

/**
 * A hub over server-everything in a fresh temp workspace for the enclosing `describe`: started in its
 * `beforeAll`, disposed (and the workspace removed) in its `afterAll`. Read `hub` and `ws` inside tests.
 */
export function useEverythingHub(): { readonly hub: McpHub; readonly ws: TempWorkspace } {
  let hub: McpHub | undefined
  let ws: TempWorkspace | undefined
  beforeAll(async () => {
    ws = await tempWorkspace()
    const pidFile = ws.path("pid")
    hub = new McpHub({
      workspaceFolder: ws.root,
      stateDir: ws.path("state"),
      settings: () => ({ mcpServers: { everything: everythingServer(pidFile) } }),
    })
    await hub.start()
  })
  afterAll(async () => {
    await hub?.dispose()
    await ws?.cleanup()
  })
  return {
    get hub() {
      if (!hub) throw new Error("useEverythingHub: the hub exists only inside the describe's tests")
      return hub
    },
    get ws() {
      if (!ws) throw new Error("useEverythingHub: the workspace exists only inside the describe's tests")
      return ws
    },
  }
}
