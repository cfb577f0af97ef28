import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { bwrapPath, requireSandbox } from "./availability"
import { bwrapArgs } from "./bwrap-args"
import { bridgeScript, findProgram } from "./index"
import { startNetworkProxy } from "./network-proxy"
import { hostSocketPaths } from "./host-sockets"
import { type HostAsk, hostAllowed, maskedHostPaths, PROXY_PORT } from "./policy"
import { completeScans } from "./workspace-scan"

/**
 * The OS sandbox the browser (browser_action's Chromium) runs in: the same bubblewrap translation and the
 * same policy data as a command (./bwrap-args.ts, ./policy.ts, ./workspace-scan.ts), with what differs for a
 * browser:
 * - reads: like a command (credential folders, the agent's config and state folder, `.rooignore`d paths masked);
 * - writes: only the browser's own private folder (profile, cache, HOME) and its private /tmp. The workspace
 *   stays read-only: screenshots come back over the DevTools pipe and downloads are refused, so the browser
 *   never needs to write there, and a page (or an exploit in it) cannot change the user's files;
 * - network: none of its own; the page reaches hosts only through the agent's proxy (./network-proxy.ts),
 *   for the origins the user approved opening, hosts in agent.sandbox.network.allowedHosts, and hosts the
 *   user approves when the page first asks (`ask`);
 * - processes: its own PID namespace, dying with the server (--die-with-parent).
 */

export interface BrowserSandboxRequest {
  /** Workspace folders (absolute, real paths): read-only for the browser, their `.rooignore`d paths masked. */
  workspaceFolders: readonly string[]
  /** agent.sandbox.network.allowedHosts. */
  allowedHosts: readonly string[]
  /** Asked about any host that is neither granted nor allowed; undefined = refused. */
  ask?: HostAsk
  /** The user's home (default: os.homedir()), for the masked credential folders. */
  home?: string
  /** The agent's state folder, masked. */
  stateDir?: string
  /** agent.sandbox.hiddenPaths and visiblePaths, as for commands. */
  hiddenPaths?: readonly string[]
  visiblePaths?: readonly string[]
}

/** A browser made ready to start inside the sandbox. */
export interface BrowserSandbox {
  /** The program to start (bwrap). */
  file: string
  /** bwrap's arguments, ending where the browser's own argv goes (after `--`, and the network bridge if any). */
  args: string[]
  /** The private folder (its path is the same inside and out), the one place the browser may write besides /tmp. */
  home: string
  /** The folder holding everything of this sandbox; every process of the browser names it on its command line. */
  root: string
  /** The proxy the browser must use (`--proxy-server`); undefined when it has no network at all. */
  proxyUrl?: string
  /** Things the user should know (the network is off because socat is missing). */
  notes: string[]
  /** Lets the browser reach `host:port` without asking (the user approved opening a page there). */
  grant(host: string, port: number): void
  /** Stops the network proxy and removes the private folder; call after the browser exited. Idempotent. */
  dispose(): void
}

/** Sets up the browser's sandbox; throws (naming why) when it cannot be set up, and then nothing may start. */
export function browserSandbox(request: BrowserSandboxRequest, bwrap: string = bwrapPath()): BrowserSandbox {
  requireSandbox(bwrap)
  const scans = completeScans(request.workspaceFolders)
  // The prefix is the one the browser's process guard and the tests look for (browser/chromium-process.ts).
  const root = mkdtempSync(join(tmpdir(), "agent-lsp-chromium-"))
  const home = join(root, "home")
  const tempDir = join(root, "tmp")
  const emptyFile = join(root, "empty")
  mkdirSync(home, { mode: 0o700 })
  mkdirSync(tempDir, { mode: 0o700 })
  writeFileSync(emptyFile, "", { mode: 0o400 })

  const granted = new Set<string>()
  const key = (host: string, port: number) => `${host.toLowerCase().replace(/^\[|\]$/g, "")}:${port}`
  const decide = async (host: string, port: number): Promise<boolean> => {
    if (granted.has(key(host, port)) || hostAllowed(host, request.allowedHosts)) return true
    if (!request.ask) return false
    return (await request.ask({ host, port }, AbortSignal.timeout(15 * 60 * 1000))) !== "deny"
  }
  const socat = findProgram("socat")
  const proxy = socat ? startNetworkProxy(join(root, "proxy.sock"), decide) : undefined
  const notes = socat ? [] : ["The browser has no network: socat is not installed (fix: sudo apt-get install socat)."]
  const masked = maskedHostPaths(request)
  const args = bwrapArgs({
    // Bound (a workspace under /tmp would be hidden by the private /tmp otherwise), but read-only.
    workspaceFolders: request.workspaceFolders,
    workspaceReadOnly: true,
    tempDir,
    emptyFile,
    maskedHostPaths: masked,
    scans,
    // No placeholders for missing protected paths: with the workspace read-only nothing can be created in it.
    placeholders: [],
    emptyFolders: [],
    // The browser's own folder, at its host path, so its command lines name it (kill and cleanup find them).
    extraWritablePaths: [home],
    hostSockets: hostSocketPaths([...request.workspaceFolders, home], masked),
    proxySocket: proxy?.socketPath,
    cwd: request.workspaceFolders[0] ?? "/",
    // Started detached (its own session) by the launcher, whose process-group kill must reach every process.
    newSession: false,
  })
  const bridge = socat && proxy ? ["/bin/sh", "-c", bridgeScript(socat), "agent-lsp-browser-sandbox"] : []
  let disposed = false
  return {
    file: bwrap,
    args: [...args, "--", ...bridge],
    home,
    root,
    proxyUrl: proxy ? `http://127.0.0.1:${PROXY_PORT}` : undefined,
    notes,
    grant(host, port) {
      granted.add(key(host, port))
    },
    dispose() {
      if (disposed) return
      disposed = true
      proxy?.close()
      rmSync(root, { recursive: true, force: true })
    },
  }
}
