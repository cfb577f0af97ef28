import { spawn } from "node:child_process"
import { withoutSecrets } from "../config/secrets"

/** A failed git invocation; the message names the command and git's own error text. */
export class GitError extends Error {
  constructor(
    args: string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args.slice(0, 3).join(" ")} failed (exit ${exitCode}): ${stderr.trim().split("\n").slice(-3).join(" | ")}`)
  }
}

/**
 * The environment for the shadow repository: nothing of the user's git setup leaks in (no GIT_DIR or
 * GIT_INDEX_FILE from a hook, no global or system config with hooks, signing, filters or fsmonitor).
 */
function shadowEnv(optionalLocks: boolean): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(withoutSecrets(process.env))) if (!key.startsWith("GIT_")) env[key] = value
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: optionalLocks ? "1" : "0",
    GIT_LITERAL_PATHSPECS: "1",
    LC_ALL: "C",
    GLIBC_TUNABLES: [env.GLIBC_TUNABLES, KEEP_FREED_MEMORY].filter(Boolean).join(":"),
  }
}

/**
 * glibc gives freed memory at the top of the heap back to the kernel once 128 KiB are free. git frees
 * a zlib stream (~300 KiB) after every blob it packs, so staging 10k files made 40k brk calls and as
 * many page faults: 1.25 s of CPU, against 0.4 s when freed memory is kept (measured with strace -c).
 * git processes are short-lived; other C libraries ignore the variable.
 */
const KEEP_FREED_MEMORY = "glibc.malloc.trim_threshold=67108864"

/** How one git command runs. */
export interface GitOptions {
  /** Bytes written to git's stdin. */
  input?: Buffer | string
  /**
   * Let a read-only command write what it learned back to the index (`git status` refreshes stat data
   * and its untracked cache); off by default, so diff and read commands never take index.lock.
   */
  optionalLocks?: boolean
}

/** Runs system git against the shadow repository; resolves with stdout, rejects with GitError. */
export function git(gitDir: string, workTree: string, args: string[], options: GitOptions = {}): Promise<Buffer> {
  const full = [`--git-dir=${gitDir}`, `--work-tree=${workTree}`, ...args]
  return new Promise((resolve, reject) => {
    const child = spawn("git", full, { cwd: workTree, env: shadowEnv(options.optionalLocks ?? false), stdio: ["pipe", "pipe", "pipe"] })
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on("data", (b: Buffer) => out.push(b))
    child.stderr.on("data", (b: Buffer) => err.push(b))
    child.on("error", (e) => reject(new GitError(args, null, `${e.message} (is git installed and on PATH?)`)))
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(out))
      else reject(new GitError(args, code, Buffer.concat(err).toString("utf8")))
    })
    child.stdin.on("error", () => undefined)
    child.stdin.end(options.input)
  })
}

/** Splits NUL-separated git output (`-z`). */
export function splitNul(output: Buffer): string[] {
  const text = output.toString("utf8")
  return text.length === 0 ? [] : text.split("\0").filter((s) => s.length > 0)
}

/** Reads blobs in one `cat-file --batch` process of `run` (a git runner bound to one repository). */
export async function readBlobs(
  run: (args: string[], input: string) => Promise<Buffer>,
  oids: string[],
  repository: string,
): Promise<Map<string, Buffer>> {
  const blobs = new Map<string, Buffer>()
  if (oids.length === 0) return blobs
  const unique = [...new Set(oids)]
  const out = await run(["cat-file", "--batch"], `${unique.join("\n")}\n`)
  let at = 0
  while (at < out.length) {
    const eol = out.indexOf(0x0a, at)
    const [oid, type, size] = out.subarray(at, eol).toString("utf8").split(" ")
    if (type === "missing" || size === undefined) throw new Error(`object ${oid} is missing from ${repository}`)
    const start = eol + 1
    blobs.set(oid!, out.subarray(start, start + Number(size)))
    at = start + Number(size) + 1
  }
  return blobs
}
