import { execFileSync, spawn, spawnSync, type ChildProcess } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"

/**
 * code-server from the npm registry, installed into a cache folder outside node_modules (it is ~600 MB
 * and compiles native modules: not something `npm ci` should do for everyone). 4.100.3 is the newest
 * release whose engines allow Node 20 (4.104+ need Node 22).
 */
export const CODE_SERVER_VERSION = "4.100.3"

/** A running code-server: its URL, and stop(), which kills its whole process group. */
export interface CodeServer {
  url: string
  pid: number
  log(): string
  stop(): Promise<void>
}

/** The folders one run of code-server uses (all temporary). */
export interface CodeServerDirs {
  userData: string
  extensions: string
}

/** Written once code-server's postinstall (the native modules, the built-in extensions' packages) finished. */
const INSTALLED_MARK = ".agent-lsp-installed"

/**
 * The entry script of the cached code-server, installing it first when it is missing. Two steps, so that
 * a slow machine never starts over: the package is fetched without its scripts, then its postinstall
 * (which compiles native modules: 15-30 min on two busy cores) runs, and only its success marks the
 * install done; an interrupted postinstall is run again, the fetched package kept.
 */
export function ensureCodeServer(cacheDir: string, log: (line: string) => void): string {
  const packageDir = join(cacheDir, "node_modules", "code-server")
  const entry = join(packageDir, "out", "node", "entry.js")
  const mark = join(packageDir, INSTALLED_MARK)
  const version = () => (JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string }).version
  const fetched = existsSync(entry) && version() === CODE_SERVER_VERSION
  if (fetched && existsSync(mark)) return entry
  const missing = missingBuildTools()
  if (missing.length)
    throw new Error(
      `code-server's install compiles native modules and needs: ${missing.join(", ")}. ` +
        "Install them with: apt-get install -y libkrb5-dev python3 make g++",
    )
  const major = Number(process.versions.node.split(".")[0])
  if (major !== 20)
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} installs only on Node 20 (its postinstall checks); this is Node ${process.versions.node}.`,
    )
  const tmp = join(cacheDir, "tmp")
  // unsafe_perm: its postinstall refuses to run as root without it. yes: node-pty's postinstall runs
  // `npx node-gyp`, which otherwise asks (and, with no terminal, cancels) before fetching node-gyp from
  // the registry. TMPDIR: where the seeded ripgrep "download" waits (see seedRipgrepDownload).
  const env = { ...process.env, npm_config_unsafe_perm: "true", npm_config_yes: "true", TMPDIR: tmp }
  if (!fetched) {
    log(`fetching code-server@${CODE_SERVER_VERSION} into ${cacheDir} (once)`)
    rmSync(join(cacheDir, "node_modules"), { recursive: true, force: true })
    mkdirSync(cacheDir, { recursive: true })
    run(
      "npm",
      ["install", "--prefix", cacheDir, "--no-save", "--no-audit", "--no-fund", "--ignore-scripts", `code-server@${CODE_SERVER_VERSION}`],
      { env, timeout: 10 * 60_000 },
    )
  }
  log("running code-server's postinstall (once; compiles native modules, 15-30 minutes on a busy machine)")
  seedRipgrepDownload(tmp)
  // The postinstall reads npm's user agent for the Node version and the package manager to use.
  run("sh", ["./postinstall.sh"], {
    cwd: packageDir,
    env: { ...env, npm_config_user_agent: `npm/${npmVersion()} node/${process.version} ${process.platform} ${process.arch}` },
    timeout: 45 * 60_000,
  })
  // code-server's CLI loads argon2's native binding at start, and nothing above builds it: the fetch skipped
  // every install script, and the postinstall builds lib/vscode's modules only. (npm 11 runs no dependency's
  // install script unasked; a rebuild that names the package does, with node-gyp against Node's headers.)
  run("npm", ["rebuild", "--prefix", cacheDir, "argon2"], { env, timeout: 10 * 60_000 })
  writeFileSync(mark, `${CODE_SERVER_VERSION}\n`)
  return entry
}

function run(command: string, args: string[], options: { cwd?: string; env: NodeJS.ProcessEnv; timeout: number }): void {
  const result = spawnSync(command, args, { ...options, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", maxBuffer: 64 * 1024 * 1024 })
  if (result.status !== 0) {
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`.split("\n").slice(-40).join("\n")
    throw new Error(
      `${command} ${args.join(" ")} failed (${result.error?.message ?? `exit ${result.status}`}); run again to resume:\n${output}`,
    )
  }
}

function npmVersion(): string {
  return execFileSync("npm", ["--version"], { encoding: "utf8" }).trim()
}

/** Build tools code-server's postinstall needs (node-gyp builds kerberos, node-pty, spdlog, ...). */
function missingBuildTools(): string[] {
  const missing: string[] = []
  const onPath = (name: string) => spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0
  for (const tool of ["make", "g++", "python3"]) if (!onPath(tool)) missing.push(tool)
  // kerberos includes <gssapi/gssapi.h> and links libgssapi_krb5: Debian's libkrb5-dev has both.
  if (!onPath("krb5-config")) missing.push("libkrb5-dev (krb5-config, gssapi headers)")
  return missing
}

/**
 * VS Code's @vscode/ripgrep 1.15 downloads rg from GitHub in its postinstall, which this machine cannot
 * reach. It first looks for the asset in `$TMPDIR/vscode-ripgrep-cache-<version>/`: put the rg that this
 * project already installs from npm (@vscode/ripgrep 1.18, rg 15) there as that asset.
 */
function seedRipgrepDownload(tmp: string): void {
  const folder = join(tmp, "vscode-ripgrep-cache-1.15.11")
  mkdirSync(folder, { recursive: true })
  const stage = join(tmp, "rg-stage")
  mkdirSync(stage, { recursive: true })
  copyFileSync(ourRipgrep(), join(stage, "rg"))
  const arch = process.arch === "arm64" ? "aarch64" : "x86_64"
  execFileSync("tar", ["czf", join(folder, `ripgrep-v13.0.0-10-${arch}-unknown-linux-musl.tar.gz`), "-C", stage, "rg"])
}

function ourRipgrep(): string {
  const candidates = [
    join(process.cwd(), "node_modules", "@vscode", `ripgrep-${process.platform}-${process.arch}`, "bin", "rg"),
    "/usr/bin/rg",
  ]
  const found = candidates.find((path) => existsSync(path))
  if (!found) throw new Error(`no rg to seed code-server's ripgrep with (looked at ${candidates.join(", ")}); run npm ci`)
  return found
}

/** `code-server --install-extension <vsix>` into the run's own folders; throws with its output on failure. */
export function installExtension(entry: string, vsix: string, dirs: CodeServerDirs): string {
  const result = spawnSync(
    process.execPath,
    [entry, "--user-data-dir", dirs.userData, "--extensions-dir", dirs.extensions, "--install-extension", vsix],
    { encoding: "utf8", timeout: 120_000 },
  )
  const output = `${result.stdout}${result.stderr}`
  if (result.status !== 0)
    throw new Error(`code-server --install-extension failed (${result.error?.message ?? `exit ${result.status}`}):\n${output}`)
  return output
}

/**
 * Starts code-server on 127.0.0.1 (a free port, no auth) on `folder`, in its own process group so stop()
 * also ends the extension host and the language server it started. Resolves once it listens.
 */
export async function startCodeServer(entry: string, folder: string, dirs: CodeServerDirs, env: NodeJS.ProcessEnv): Promise<CodeServer> {
  const args = [
    entry,
    "--bind-addr",
    "127.0.0.1:0",
    "--auth",
    "none",
    "--user-data-dir",
    dirs.userData,
    "--extensions-dir",
    dirs.extensions,
    "--disable-telemetry",
    "--disable-update-check",
    "--disable-workspace-trust",
    "--disable-getting-started-override",
    "--ignore-last-opened",
    folder,
  ]
  const child = spawn(process.execPath, args, { env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  let output = ""
  child.stdout!.on("data", (d) => (output += d))
  child.stderr!.on("data", (d) => (output += d))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not listen within 60 s:\n${output}`)), 60_000)
    const check = () => {
      const match = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output)
      if (match) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    child.stdout!.on("data", check)
    child.stderr!.on("data", check)
    child.on("exit", (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`code-server exited at start (${signal ?? `exit ${code}`}):\n${output}`))
    })
  })
  return { url, pid: child.pid!, log: () => output, stop: () => killGroup(child) }
}

/** SIGTERM to the process group, SIGKILL after 5 s if anything is left. */
async function killGroup(child: ChildProcess): Promise<void> {
  const pgid = child.pid!
  const signal = (sig: NodeJS.Signals | 0) => {
    try {
      process.kill(-pgid, sig)
      return true
    } catch {
      return false // the group is gone
    }
  }
  if (!signal("SIGTERM")) return
  const until = Date.now() + 5000
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100))
    if (!signal(0)) return
  }
  signal("SIGKILL")
}
