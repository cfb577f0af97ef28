import { accessSync, constants, statSync } from "node:fs"
import { delimiter, isAbsolute, join } from "node:path"

/** Browser names looked up on PATH when `browser.executablePath` is not set, in this order. */
export const BROWSER_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] as const

/** What to tell the user (and the model) when no browser can be found. */
export const INSTALL_HINT =
  "Install Chromium (Debian/Ubuntu: `apt-get install chromium`; Fedora: `dnf install chromium`; " +
  "macOS: `brew install --cask chromium`), or set agent.browser.executablePath to a Chrome/Chromium binary, " +
  "or agent.browser.remoteUrl to a browser started with --remote-debugging-port, in your own editor settings."

export type FoundBrowser = { ok: true; path: string } | { ok: false; message: string }

/**
 * The browser to start: `configured` (agent.browser.executablePath) when set, else the first of
 * BROWSER_NAMES on PATH. A configured path that does not exist is an error, not a silent fallback.
 */
export function findBrowserExecutable(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): FoundBrowser {
  if (configured) {
    const path = isAbsolute(configured) ? configured : onPath(configured, env)
    if (path && isExecutable(path)) return { ok: true, path }
    return { ok: false, message: `agent.browser.executablePath is "${configured}", which is not an executable file. ${INSTALL_HINT}` }
  }
  for (const name of BROWSER_NAMES) {
    const path = onPath(name, env)
    if (path) return { ok: true, path }
  }
  return { ok: false, message: `No browser was found (looked for ${BROWSER_NAMES.join(", ")} on PATH). ${INSTALL_HINT}` }
}

function onPath(name: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, name)
    if (isExecutable(candidate)) return candidate
  }
  return undefined
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false
    accessSync(path, constants.X_OK)
    return true
  } catch {
    return false
  }
}
