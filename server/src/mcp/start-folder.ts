import { existsSync, mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * Where a stdio MCP server without a configured `cwd` starts: a folder of its own in the agent's state
 * folder, not the workspace. Package runners pick code from their working folder before anything else:
 * `npx -y @modelcontextprotocol/server-x` runs a workspace's `node_modules/@modelcontextprotocol/server-x`
 * (a repository can ship one; a sandboxed command can write one), `python -m pkg` imports `./pkg`. Started
 * in the workspace, such a server would run the repository's code outside the OS sandbox. The folder holds
 * a `package.json`, so npm's search for a project stops there (not at a `node_modules` above it), and
 * nothing else; no sandboxed command can write it (the state folder is hidden from them). The server
 * learns the workspace folders as its MCP roots; a configured relative `cwd` is the workspace's
 * (`"cwd": "."` starts it there, for a server that needs that).
 */
export function serverStartFolder(stateDir: string): string {
  const folder = join(stateDir, "mcp-server-start")
  mkdirSync(folder, { recursive: true, mode: 0o700 })
  const manifest = join(folder, "package.json")
  if (!existsSync(manifest))
    writeFileSync(
      manifest,
      `${JSON.stringify({ name: "agent-lsp-mcp-server-start", private: true, description: "Where agent-lsp starts stdio MCP servers (see docs/mcp.md)" }, null, 2)}\n`,
    )
  return folder
}
