import { spawn } from "node:child_process"
import { readSync } from "node:fs"
import { Socket } from "node:net"
import { constants } from "node:os"
import { holdSecrets, registerSecretNames, secretsOf, withoutSecrets } from "../config/secrets"
import { apiKeyEnvNames } from "./api-key-names"
import { memoryFlags } from "./memory-flags"
import { scrubOwnEnviron } from "./scrub-environ"

/**
 * Keeps the API keys out of reach of everything the agent starts. Deleting a variable from process.env
 * does not change /proc/<pid>/environ (the kernel shows the environment the process was started with), and
 * a command can read /proc/$PPID/environ. So when this process was started with secrets in its
 * environment, it takes them into the secrets store and blanks them in that start-up block
 * (./scrub-environ.ts, Linux). Where that cannot be done it starts the real server as a child whose
 * environment has none of them, hands the secrets over on an extra pipe (fd 3), and only relays: stdio is
 * inherited, signals are forwarded, the child's exit code is ours. The child exits when fd 3 closes, i.e.
 * when this parent dies. The relay costs a second Node start (+190 ms to the first answer, measured with
 * `npm run bench -- cold-start`); the scrub costs nothing measurable and leaves no ancestor holding a key.
 */

/** The fd the child reads its secrets from; the variable tells the child to read it. */
const SECRETS_FD = 3
const CHILD_MARK = "AGENT_LSP_SECRETS_FD"
/** Test switch: skip the in-place environ scrub and relaunch as on platforms without /proc/self/mem. */
const FORCE_RELAUNCH = "AGENT_LSP_RELAUNCH"
const FORWARDED: NodeJS.Signals[] = ["SIGINT", "SIGTERM", "SIGHUP"]

/**
 * Called first in main. Returns "parent" when this process has started the real server and must do
 * nothing else; "server" when this process is the server (one that scrubbed its own environment, a child
 * that received its secrets, or a process that had none to hide).
 */
export function relaunchWithoutSecrets(env: NodeJS.ProcessEnv = process.env): "parent" | "server" {
  if (env[CHILD_MARK] === String(SECRETS_FD)) {
    delete env[CHILD_MARK]
    receiveSecrets()
    return "server"
  }
  registerSecretNames(apiKeyEnvNames(env))
  const secrets = secretsOf(env)
  const names = Object.keys(secrets)
  if (names.length === 0) return "server"
  holdSecrets(secrets)
  for (const name of names) delete env[name]
  // AGENT_LSP_RELAUNCH=1 takes the path macOS and Windows take, so it is tested on Linux too.
  if (env === process.env && env[FORCE_RELAUNCH] !== "1" && scrubOwnEnviron(names)) return "server"
  // The relaunch costs a process start anyway: the server also gets its memory flags here, for free.
  const child = spawn(process.execPath, [...memoryFlags(process.execArgv, env), ...process.execArgv, ...process.argv.slice(1)], {
    stdio: ["inherit", "inherit", "inherit", "pipe"],
    env: { ...withoutSecrets(env), [CHILD_MARK]: String(SECRETS_FD) },
  })
  const channel = child.stdio[SECRETS_FD] as NodeJS.WritableStream
  channel.on("error", () => undefined)
  // Kept open afterwards: its end is how the child learns that this parent died.
  channel.write(`${JSON.stringify(secrets)}\n`)
  for (const signal of FORWARDED) process.on(signal, () => child.kill(signal))
  child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? (constants.signals[signal] ?? 0) : 0)))
  child.on("error", (error) => {
    process.stderr.write(`agent-lsp: could not start the server process: ${error.message}\n`)
    process.exit(1)
  })
  return "parent"
}

/** In the child: reads the secrets line from fd 3 synchronously, before anything could need a key. */
function receiveSecrets(): void {
  const chunks: Buffer[] = []
  const buffer = Buffer.alloc(4096)
  for (let received = 0; !Buffer.concat(chunks).includes(10); ) {
    try {
      received = readSync(SECRETS_FD, buffer)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EAGAIN") continue
      break
    }
    if (received === 0) break
    chunks.push(Buffer.from(buffer.subarray(0, received)))
  }
  const text = Buffer.concat(chunks).toString("utf8")
  try {
    const secrets = JSON.parse(text.slice(0, text.indexOf("\n"))) as Record<string, string>
    registerSecretNames(Object.keys(secrets))
    holdSecrets(secrets)
  } catch {
    process.stderr.write("agent-lsp: could not read the API keys from the launcher; model requests will report a missing key.\n")
  }
  // The parent never writes again: end of file on fd 3 means it is gone, and so must we be.
  const parent = new Socket({ fd: SECRETS_FD, readable: true, writable: false })
  parent.on("data", () => undefined)
  parent.on("end", () => process.exit(1))
  parent.on("close", () => process.exit(1))
  parent.on("error", () => process.exit(1))
  parent.unref()
}
