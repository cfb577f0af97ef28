import { delimiter, join } from "node:path"
import type { Settings } from "../config/schema"
import { languageServerSandbox } from "../sandbox/language-server-sandbox"
import { commandEnv, isExecutable } from "../terminal/env"

/** How a language server's process starts, or why it may not. */
export type ServerLaunch =
  | {
      ok: true
      file: string
      args: string[]
      env: NodeJS.ProcessEnv
      fd3?: string
      /**
       * True in the OS sandbox: then the server is told no parent process id (its own PID namespace has no
       * process of ours, and a server that watches its parent, as vscode-languageserver's do, would exit at
       * once); bwrap's --die-with-parent ends it with us instead.
       */
      sandboxed: boolean
      dispose(): void
    }
  | { ok: false; message: string }

/**
 * A language server runs the workspace's own code (typescript-language-server loads the workspace's
 * node_modules/typescript before its own; rust-analyzer runs build scripts), so it runs inside the OS
 * sandbox like a command (sandbox/language-server-sandbox.ts), with a command's key-free environment.
 * Outside it only when the user turned the sandbox off in their own settings; where the sandbox is
 * required but cannot start, the server does not start either (fail closed), and says why.
 */
export function serverLaunch(settings: Settings, folders: readonly string[], argv: readonly string[], root: string): ServerLaunch {
  const [name, ...args] = argv
  if (!name) return { ok: false, message: "its command line is empty (agent.languageServers)" }
  // Looked up here, on PATH's absolute folders only: a missing program is named as such, and a relative PATH
  // entry (`node_modules/.bin`) never picks a program from the workspace, whose cwd the server starts in.
  const env = commandEnv()
  const program = findExecutable(name, env.PATH)
  if (!program)
    return {
      ok: false,
      message: `${name} was not found${name.includes("/") ? " (a path must be absolute)" : " on PATH"}: check agent.languageServers`,
    }
  if (settings.sandbox.mode === "off") return { ok: true, file: program, args, env, sandboxed: false, dispose: () => undefined }
  try {
    const sandbox = languageServerSandbox({ workspaceFolders: folders.length > 0 ? folders : [root], settings }, [program, ...args], root)
    return {
      ok: true,
      file: sandbox.file,
      args: sandbox.args,
      env: { ...env, ...sandbox.env },
      fd3: sandbox.fd3,
      sandboxed: true,
      dispose: () => sandbox.dispose(),
    }
  } catch (error) {
    return {
      ok: false,
      message:
        `${(error as Error).message}. Language servers the agent starts run only inside the OS sandbox, since they run ` +
        'the workspace\'s own code; fix the sandbox (docs/sandbox.md), or set agent.sandbox.mode to "off" in your own settings to run them outside it',
    }
  }
}

/** The executable `program` is (an absolute path, or a name looked up on `path`'s absolute folders); undefined when none. */
function findExecutable(program: string, path = ""): string | undefined {
  if (program.includes("/") && !program.startsWith("/")) return undefined // relative to which folder? settings name absolute paths
  const folders = path.split(delimiter).filter((dir) => dir.startsWith("/"))
  const candidates = program.includes("/") ? [program] : folders.map((dir) => join(dir, program))
  return candidates.find((candidate) => isExecutable(candidate))
}
