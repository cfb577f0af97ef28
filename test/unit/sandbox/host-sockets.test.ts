import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process"
import { accessSync, constants, mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"
import { hostSocketPaths } from "../../../server/src/sandbox/host-sockets"
import { pollUntil } from "../../support/poll"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"

/**
 * A read-only mount does not stop connect(2) on a Unix socket, and behind the host's sockets are programs that
 * run what they are told outside the sandbox (the Docker daemon, the D-Bus session bus, an editor's server).
 * Each test starts a real listening socket on the host and has real bash in real bubblewrap try to reach it.
 */

const folders = sandboxTestFolders()
const listeners: ChildProcess[] = []
const dirs: string[] = []
afterAll(async () => {
  // Other test files run sandboxed commands meanwhile, and each covers every host socket it lists: a socket
  // file removed between that listing and bwrap's mount stops that command (docs/sandbox.md). So the sockets
  // leave the kernel's table first (SIGKILL: socat cannot remove its file), and their files go only once any
  // sandbox set up with them listed has had time to finish (bounded).
  for (const listener of listeners) listener.kill("SIGKILL")
  await new Promise((resolve) => setTimeout(resolve, 3000))
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
}, 20_000)

/** A host socket at `path` (socat) that answers every connection with `reply`; resolves once it answers. */
async function listening(path: string, reply: string): Promise<void> {
  listeners.push(spawn("socat", [`UNIX-LISTEN:${path},fork`, `SYSTEM:printf ${reply}`], { stdio: "ignore" }))
  await pollUntil(`${path} to answer`, () => answers(path, reply), 10_000)
}

/** Whether the socket at `path` answers `reply` to a host client now. */
function answers(path: string, reply: string): boolean {
  const run = spawnSync("socat", ["-u", `UNIX-CONNECT:${path}`, "-"], { encoding: "utf8", timeout: 2000 })
  return run.stdout === reply
}

/** A folder for sockets outside /tmp (which the sandbox replaces whole) and outside /run. */
function socketFolder(parent = "/var/tmp"): string {
  const dir = realpathSync(mkdtempSync(join(parent, "agent-lsp-sock-")))
  dirs.push(dir)
  return dir
}

const connect = (path: string) => `socat -u UNIX-CONNECT:${path} - 2>&1; echo "exit $?"`

function run(command: string) {
  return folders
    .workspace()
    .then((ws) => startSandboxed(command, { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } }).done)
}

describe("the host's Unix sockets", () => {
  it("cannot be reached from a command, wherever they are bound", async () => {
    const path = join(socketFolder(), "daemon.sock")
    await listening(path, "HOST-DAEMON-ANSWERED")
    expect(hostSocketPaths([])).toContain(path)
    const result = await run(connect(path))
    expect(result.output).not.toContain("HOST-DAEMON-ANSWERED")
    expect(result.output).toMatch(/Connection refused|No such file|Permission denied/)
  })

  it.runIf(writable("/run"))("cannot be reached under /run, where the user's runtime folder and the daemons' sockets live", async () => {
    const path = join(socketFolder("/run"), "bus")
    await listening(path, "SESSION-BUS-ANSWERED")
    const result = await run(`${connect(path)}; ls /run`)
    expect(result.output).not.toContain("SESSION-BUS-ANSWERED")
  })

  it("is not listed to cover when it lies in a hidden credential folder already (no mount point appears there)", async () => {
    const home = socketFolder()
    const path = join(home, ".gnupg", "S.gpg-agent")
    mkdirSync(join(home, ".gnupg"))
    await listening(path, "GPG-AGENT-ANSWERED")
    expect(hostSocketPaths([], [join(home, ".gnupg")])).not.toContain(path)
    expect(hostSocketPaths([])).toContain(path)
  })

  it("can still be made and used inside the sandbox by the command itself", async () => {
    // The client tries again until the listener answers (at most 5 s): the socket file appears at bind(), before
    // listen(), and a listener slow to start on a loaded machine is not the sandbox refusing it.
    const result = await run(
      "socat UNIX-LISTEN:/tmp/own.sock SYSTEM:'echo OWN-SOCKET-ANSWERED' & for i in $(seq 250); do socat -u UNIX-CONNECT:/tmp/own.sock - 2>/dev/null && break; sleep 0.02; done",
    )
    expect(result.output).toContain("OWN-SOCKET-ANSWERED")
  })

  it("can be reached from the host (the control: the first test's socket answers outside the sandbox)", async () => {
    const path = join(socketFolder(), "control.sock")
    await listening(path, "CONTROL-ANSWERED")
    const { stdout } = await promisify(execFile)("socat", ["-u", `UNIX-CONNECT:${path}`, "-"], { encoding: "utf8", timeout: 10_000 })
    expect(stdout).toBe("CONTROL-ANSWERED")
  })
})

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}
