import { accessSync, constants, statSync } from "node:fs"
import { createRequire } from "node:module"
import { delimiter, join } from "node:path"

/**
 * Which ripgrep to run: `agent.search.ripgrepPath` if set (trusted sources only), else the one bundled in
 * `@vscode/ripgrep` (rg 15 in an npm package), else `rg` on PATH.
 */

export type RipgrepLocation = { ok: true; path: string; source: "setting" | "bundled" | "path" } | { ok: false; message: string }

export const RIPGREP_MISSING =
  "ripgrep (rg) is needed for search_files and none was found: agent.search.ripgrepPath is not set, the bundled " +
  "@vscode/ripgrep package is missing, and there is no rg on PATH. Install ripgrep (e.g. `apt install ripgrep`, " +
  "`brew install ripgrep`) or set agent.search.ripgrepPath to an rg binary. Meanwhile use list_files and read_file."

let bundledCache: string | null | undefined

/** Finds rg; `env` is searched for PATH (tests pass their own). */
export function locateRipgrep(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): RipgrepLocation {
  if (configured) {
    if (isExecutable(configured)) return { ok: true, path: configured, source: "setting" }
    return {
      ok: false,
      message: `agent.search.ripgrepPath is set to "${configured}", which is not an executable file. Fix the setting or remove it to use the bundled ripgrep.`,
    }
  }
  const bundled = bundledRipgrep()
  if (bundled) return { ok: true, path: bundled, source: "bundled" }
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue
    const candidate = join(dir, process.platform === "win32" ? "rg.exe" : "rg")
    if (isExecutable(candidate)) return { ok: true, path: candidate, source: "path" }
  }
  return { ok: false, message: RIPGREP_MISSING }
}

/** The rg inside @vscode/ripgrep's platform package, resolved at run time (it stays external to the bundle). */
export function bundledRipgrep(): string | undefined {
  if (bundledCache !== undefined) return bundledCache ?? undefined
  bundledCache = null
  // In the esbuild CJS bundle import.meta.url is empty but __filename exists; under tsx/vitest it is the reverse.
  const base = typeof __filename === "string" ? __filename : import.meta.url
  const require = createRequire(base)
  const binary = process.platform === "win32" ? "rg.exe" : "rg"
  const attempts = [
    () => require.resolve(`@vscode/ripgrep-${process.platform}-${process.arch}/bin/${binary}`),
    () => (require("@vscode/ripgrep") as { rgPath: string }).rgPath,
  ]
  for (const attempt of attempts) {
    try {
      const found = attempt()
      if (found && isExecutable(found)) {
        bundledCache = found
        return found
      }
    } catch {
      // try the next way
    }
  }
  return undefined
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK)
    return statSync(path).isFile()
  } catch {
    return false
  }
}
