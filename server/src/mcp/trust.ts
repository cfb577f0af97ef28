import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import type { ResolvedMcpServer, WorkspaceMcpFile } from "./config"
import { commandLine, describeServer } from "./describe-server"
import type { McpTrustAsker } from "./port"

interface TrustEntry {
  workspace: string
  file: string
  sha256: string
  approvedAt: string
}

/**
 * Remembers which workspace `.roo/mcp.json` files the user approved, per workspace and file sha256, in
 * `<stateDir>/mcp-trust.json`. A changed file has another hash and is asked about again.
 */
export class McpTrustStore {
  constructor(private readonly stateDir: string) {}

  get file(): string {
    return join(this.stateDir, "mcp-trust.json")
  }

  async isTrusted(workspace: string, file: WorkspaceMcpFile): Promise<boolean> {
    const entries = await this.read()
    return entries.some((e) => e.workspace === workspace && e.file === file.path && e.sha256 === file.sha256)
  }

  async remember(workspace: string, file: WorkspaceMcpFile): Promise<void> {
    const entries = (await this.read()).filter((e) => !(e.workspace === workspace && e.file === file.path))
    entries.push({ workspace, file: file.path, sha256: file.sha256, approvedAt: new Date().toISOString() })
    await mkdir(dirname(this.file), { recursive: true })
    const temp = `${this.file}.${process.pid}.tmp`
    await writeFile(temp, JSON.stringify({ entries }, null, 2), { mode: 0o600 })
    await rename(temp, this.file)
  }

  private async read(): Promise<TrustEntry[]> {
    try {
      const json = JSON.parse(await readFile(this.file, "utf8")) as { entries?: TrustEntry[] }
      return Array.isArray(json.entries) ? json.entries : []
    } catch {
      return []
    }
  }
}

/** Who is asking and on behalf of which task (the approval is shown in that task). */
export interface TrustAskContext {
  ask: McpTrustAsker
  taskId: string
  signal: AbortSignal
}

/**
 * Asks the user once whether the workspace file may start these servers, naming each command line.
 * Resolves true only on an explicit allow; any other outcome (reject, dismissal, timeout) is false.
 */
export async function askWorkspaceTrust(file: WorkspaceMcpFile, servers: ResolvedMcpServer[], context: TrustAskContext): Promise<boolean> {
  const lines = servers.map((s) => {
    const allow = s.config.alwaysAllow?.length ? ` (runs without asking: ${s.config.alwaysAllow.join(", ")})` : ""
    return `- ${s.name}: ${describeServer(s)}${allow}`
  })
  const answer = await context.ask.approve(
    {
      taskId: context.taskId,
      callId: `mcp-trust-${file.sha256.slice(0, 8)}`,
      tool: "mcp_trust",
      title: `Start the MCP servers of ${file.path}?`,
      detail: `This workspace's MCP configuration wants to start these programs:\n${lines.join("\n")}\n\nOnly allow this if you trust this repository. You will be asked again if the file changes.`,
      command: servers.map(commandLine).join("\n"),
      options: [
        { optionId: "trust", label: "Trust and start", kind: "allow_always" },
        { optionId: "reject", label: "Do not start", kind: "reject_once" },
      ],
    },
    context.signal,
  )
  return answer.decision === "answered" && (answer.kind === "allow_always" || answer.kind === "allow_once")
}
