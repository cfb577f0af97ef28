import { spawn, spawnSync } from "node:child_process"
import { describe, expect, it } from "vitest"
import { sandboxCommand } from "../../../server/src/sandbox"
import { runHookProcess } from "../../../server/src/hooks/run-hook"
import { sandboxTestFolders, startSandboxed } from "../../support/sandboxed-command"

/**
 * The kernel keyrings: a command inherits the server's session keyring (Kerberos tickets, eCryptfs
 * passphrases…), which no mount can hide, so the sandbox's seccomp filter refuses the keyring system calls.
 * Each test is real perl calling the kernel (perl-base is part of every Debian system) in real bubblewrap:
 * the sandboxed argv as our runner and hooks start it (the filter as descriptor 3) and as an editor's
 * terminal gets it (/bin/sh opens the filter, then runs bwrap).
 */

const folders = sandboxTestFolders()

/** keyctl and add_key for this machine's native ABI (the filter's own table is checked in seccomp.test.ts). */
const NR = ({ x64: { add_key: 248, keyctl: 250 }, arm64: { add_key: 217, keyctl: 219 } } as const)[process.arch as "x64" | "arm64"]
const KEYCTL_JOIN_SESSION_KEYRING = 1
const KEYCTL_SEARCH = 10
const KEYCTL_READ = 11
const SESSION_KEYRING = -3

/** Perl that prints the session keyring's id, or the error the kernel gave (KEYCTL_GET_KEYRING_ID). */
const SESSION_ID = `perl -e '$r = syscall(${NR.keyctl}, 0, ${SESSION_KEYRING}, 1); print $r < 0 ? "keyctl: $!\\n" : "keyring $r\\n"'`
/** Perl that finds the key named agent-lsp-test in the session keyring and prints what it holds. */
// perl's syscall() passes strings as writable buffers: each one is a variable, never a literal.
const READ_KEY = [
  '$t = "user"; $d = "agent-lsp-test";',
  `$id = syscall(${NR.keyctl}, ${KEYCTL_SEARCH}, ${SESSION_KEYRING}, $t, $d, 0);`,
  'if ($id < 0) { print "search: $!\\n"; exit 0 }',
  '$buf = "\\0" x 64;',
  `$n = syscall(${NR.keyctl}, ${KEYCTL_READ}, $id, $buf, 64);`,
  'print $n < 0 ? "read: $!\\n" : "key: " . substr($buf, 0, $n) . "\\n";',
].join(" ")
/** Perl that joins a new session keyring holding a key agent-lsp-test = the secret, then runs its arguments. */
const WITH_SECRET_KEY = [
  `syscall(${NR.keyctl}, ${KEYCTL_JOIN_SESSION_KEYRING}, 0) >= 0 or die "join: $!";`,
  '$t = "user"; $d = "agent-lsp-test"; $v = "KEYRING-SECRET-42";',
  `syscall(${NR.add_key}, $t, $d, $v, 17, ${SESSION_KEYRING}) >= 0 or die "add_key: $!";`,
  "exec @ARGV or die;",
].join(" ")

function output(file: string, args: string[], stdio: ("ignore" | "pipe" | number)[] = ["ignore", "pipe", "pipe"]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio })
    let out = ""
    child.stdout?.on("data", (chunk: Buffer) => (out += chunk))
    child.stderr?.on("data", (chunk: Buffer) => (out += chunk))
    child.on("error", reject)
    child.on("close", () => resolve(out))
  })
}

describe.runIf(NR !== undefined)("the kernel keyrings", () => {
  it("a key in the session keyring the command inherits cannot be read in the sandbox, while outside it can", async () => {
    const ws = await folders.workspace()
    // Control: the same perl under the same keyring, unsandboxed, reads the key (so the test can see one).
    expect(await output("perl", ["-e", WITH_SECRET_KEY, "perl", "-e", READ_KEY])).toBe("key: KEYRING-SECRET-42\n")
    const command = sandboxCommand(["/bin/bash", "--noprofile", "--norc", "-c", `perl -e '${READ_KEY}'`], ws.root, {
      workspaceFolders: [ws.root],
      home: folders.home().root,
      network: { allowedHosts: [] },
    })
    try {
      // As an editor's terminal gets it (terminal/create): no descriptor passed, /bin/sh opens the filter.
      expect(command.fd3).toBeUndefined()
      const inside = await output("perl", ["-e", WITH_SECRET_KEY, command.file, ...command.args])
      expect(inside).not.toContain("KEYRING-SECRET-42")
      expect(inside).toBe("search: Operation not permitted\n")
    } finally {
      command.dispose()
    }
  })

  it("refuses the keyring calls to commands our runner starts (the filter passed as descriptor 3)", async () => {
    expect(spawnSync("bash", ["-c", SESSION_ID], { encoding: "utf8" }).stdout).toMatch(/^keyring -?\d+\n$/)
    const ws = await folders.workspace()
    const result = await startSandboxed(`${SESSION_ID}; echo still running`, {
      workspaceFolders: [ws.root],
      home: folders.home().root,
      network: { allowedHosts: [] },
    }).done
    expect(result.output).toBe("keyctl: Operation not permitted\nstill running\n")
  })

  it("refuses them to hooks too", async () => {
    const ws = await folders.workspace()
    const result = await runHookProcess({
      command: SESSION_ID,
      cwd: ws.root,
      sandbox: { kind: "sandboxed", policy: { workspaceFolders: [ws.root], home: folders.home().root, network: { allowedHosts: [] } } },
      input: "{}",
      timeoutMs: 20_000,
      maxOutputBytes: 10_000,
    })
    expect(result.stdout).toBe("keyctl: Operation not permitted\n")
  })
})
