import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { type ChromiumHandle, processesMentioning, trackChromium, UNATTENDED_SWITCHES } from "./chromium-process"

/**
 * Chromium inside the OS sandbox. The sandbox (bubblewrap) takes the browser's network away, so DevTools
 * cannot be reached over a port: Playwright's own launcher starts `bwrap … -- chromium
 * --remote-debugging-pipe` and talks CDP over the inherited pipe on fds 3 and 4, which bwrap passes to
 * Chromium unchanged. No port is opened, so no other local process can drive this browser either.
 */

/**
 * What the browser needs from the sandbox (sandbox/browser-sandbox.ts gives it; browser/ does not import
 * sandbox/, the tool hands it in).
 */
export interface BrowserJail {
  /** bwrap */
  file: string
  /** bwrap's arguments, up to where the browser's argv goes. */
  args: readonly string[]
  /** The browser's private writable folder, at the same path inside the sandbox. */
  home: string
  /** The folder holding the whole sandbox; every browser process names it; removed by dispose. */
  root: string
  /** The proxy to send every request through; undefined = no network. */
  proxyUrl?: string
  notes: readonly string[]
  grant(host: string, port: number): void
  dispose(): void
}

/**
 * Hosts Chromium contacts by itself whatever its switches say (update checks, seen with Debian's Chromium 156):
 * sent around the proxy, so they fail in the sandbox's empty network instead of asking the user about them.
 */
export const CHROMIUM_SERVICE_HOSTS: readonly string[] = ["update.googleapis.com", "clients2.google.com"]

/** A cold start on a busy machine is slow (bwrap, the network bridge, then Chromium). */
const START_TIMEOUT_MS = 30_000

/** Chromium's argv inside the sandbox (the executable first). */
export function sandboxedChromiumArgv(executablePath: string, jail: Pick<BrowserJail, "home" | "proxyUrl">): string[] {
  return [
    executablePath,
    "--remote-debugging-pipe",
    `--user-data-dir=${join(jail.home, "profile")}`,
    // Chromium's own sandbox needs a new user namespace (or its setuid helper) for every renderer, and neither
    // works inside bubblewrap's namespaces (an unprivileged user cannot nest them there; setuid is off under
    // bwrap's nosuid mounts; as root Chromium refuses to sandbox at all). bubblewrap is the sandbox instead: the
    // whole browser, renderers included, reads only what a command may read, writes only its own folder and
    // /tmp, sees only its own processes and has no network but the proxy. What is given up is the isolation of
    // a renderer from the browser process; both are held by the same walls.
    "--no-sandbox",
    ...(jail.proxyUrl
      ? // `<-loopback>` removes Chromium's implicit bypass of localhost: inside the sandbox's network namespace
        // localhost is empty, and the user's dev server on the real loopback is reached through the proxy.
        [`--proxy-server=${jail.proxyUrl}`, `--proxy-bypass-list=${["<-loopback>", ...CHROMIUM_SERVICE_HOSTS].join(";")}`]
      : []),
    ...UNATTENDED_SWITCHES,
    "about:blank",
  ]
}

/** Starts Chromium in the jail; resolves with the connected browser and the handle that ends it (and the jail). */
export async function startSandboxedChromium(
  executablePath: string,
  jail: BrowserJail,
  env: NodeJS.ProcessEnv,
): Promise<{ browser: Browser; process: ChromiumHandle }> {
  const { chromium } = await import("playwright-core")
  // Its HOME, config and cache are the private folder: nothing is written to the user's.
  const browserEnv: Record<string, string> = {
    ...definedOnly(env),
    HOME: jail.home,
    XDG_CONFIG_HOME: join(jail.home, "config"),
    XDG_CACHE_HOME: join(jail.home, "cache"),
    TMPDIR: "/tmp",
  }
  let browser: Browser
  try {
    browser = await chromium.launch({
      executablePath: jail.file,
      // Exactly our argv: bwrap's arguments, then Chromium's (the pipe switch included).
      ignoreDefaultArgs: true,
      args: [...jail.args, ...sandboxedChromiumArgv(executablePath, jail)],
      env: browserEnv,
      // The server ends its browsers on these signals itself (the exit hook); Playwright must not exit for it.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
      timeout: START_TIMEOUT_MS,
    })
  } catch (error) {
    jail.dispose()
    throw new Error(`Chromium did not start in the OS sandbox: ${firstLines(error)}`)
  }
  const pid = spawnedBy(process.pid, jail.root)
  if (pid === undefined) {
    await browser.close().catch(() => undefined)
    jail.dispose()
    throw new Error("Chromium started in the OS sandbox but its process could not be found to look after it.")
  }
  const handle = trackChromium(pid, jail.root, env, () => browser.close())
  return {
    browser,
    process: {
      pid,
      kill: () => handle.kill().finally(() => jail.dispose()),
    },
  }
}

/** The child of `parent` whose command line names `text` (bwrap, which Playwright spawned detached). */
function spawnedBy(parent: number, text: string): number | undefined {
  return processesMentioning(text).find((pid) => parentOf(pid) === parent)
}

function parentOf(pid: number): number | undefined {
  try {
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so read after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value
  return out
}

function firstLines(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error)
  return text.split("\n").slice(0, 6).join("\n")
}
