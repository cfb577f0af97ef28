import { existsSync, readFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"

/**
 * The node_modules folders (relative to `root`) that `names` need at run time: each package and, through
 * its `dependencies` (not optional or peer ones), everything it imports, found the way Node resolves them
 * (the package's own node_modules first, then each parent's). A folder inside another listed folder is
 * left out: copying the outer one brings it along.
 */
export function dependencyFolders(root: string, names: readonly string[]): string[] {
  const found = new Set<string>()
  const visit = (folder: string) => {
    if (found.has(folder)) return
    found.add(folder)
    const manifest = JSON.parse(readFileSync(join(root, folder, "package.json"), "utf8")) as { dependencies?: Record<string, string> }
    for (const dep of Object.keys(manifest.dependencies ?? {})) visit(resolveFrom(root, folder, dep))
  }
  for (const name of names) visit(resolveFrom(root, ".", name))
  const all = [...found]
  return all.filter((folder) => !all.some((other) => other !== folder && folder.startsWith(`${other}/`))).sort()
}

function resolveFrom(root: string, from: string, name: string): string {
  for (let dir = join(root, from); ; dir = dirname(dir)) {
    const candidate = join(dir, "node_modules", name)
    if (existsSync(join(candidate, "package.json"))) return relative(root, candidate)
    if (relative(root, dir) === "" || dir === dirname(dir)) break
  }
  throw new Error(`${name} (needed by ${from}) is not installed: run npm ci`)
}
