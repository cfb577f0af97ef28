import { readdir } from "node:fs/promises"
import { readRegularFile } from "../config/regular-file"
import { join } from "node:path"
import { WatchedCache } from "../skills"
import { guardPath } from "../workspace/guard"
import type { CustomInstructions } from "./sections"

/** Rule files larger than this are cut: one stray file must not eat the context window. */
const MAX_RULE_CHARS = 20_000

/**
 * Reads the workspace's instructions for a mode: AGENTS.md at the root, `.roo/rules/*.md` and
 * `.roo/rules-<mode>/*.md` (sorted by name), and whether a .rooignore exists. Missing files are normal.
 */
export async function loadCustomInstructions(
  workspaceRoot: string | undefined,
  modeSlug: string,
  settingsText: string,
  modeText?: string,
): Promise<CustomInstructions> {
  if (!workspaceRoot) return { settings: settingsText, mode: modeText, rules: [], hasRooIgnore: false }
  const files = await readFiles.get(JSON.stringify([workspaceRoot, modeSlug]), (beforeRead) => {
    for (const dir of ["", ".roo", ".roo/rules", `.roo/rules-${modeSlug}`]) beforeRead(join(workspaceRoot, dir))
    return readInstructionFiles(workspaceRoot, modeSlug)
  })
  return { settings: settingsText, mode: modeText, ...files }
}

/** The files' part per workspace and mode, kept until one of their folders changes (read before every request). */
const readFiles = new WatchedCache<Pick<CustomInstructions, "agentsMd" | "rules" | "hasRooIgnore">>()

async function readInstructionFiles(workspaceRoot: string, modeSlug: string) {
  const [agentsMd, rules, modeRules, rooIgnore] = await Promise.all([
    readText(join(workspaceRoot, "AGENTS.md"), workspaceRoot),
    readRuleDir(workspaceRoot, ".roo/rules"),
    readRuleDir(workspaceRoot, `.roo/rules-${modeSlug}`),
    readText(join(workspaceRoot, ".rooignore")),
  ])
  return { agentsMd, rules: [...rules, ...modeRules], hasRooIgnore: rooIgnore !== undefined }
}

async function readRuleDir(root: string, relativeDir: string): Promise<{ path: string; text: string }[]> {
  let names: string[]
  try {
    names = (await readdir(join(root, relativeDir), { withFileTypes: true }))
      .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
      .map((entry) => entry.name)
      .sort()
  } catch {
    return []
  }
  // Read at once, kept in name order: this runs before every model request.
  const texts = await Promise.all(names.map((name) => readText(join(root, relativeDir, name), root)))
  return names.flatMap((name, i) => (texts[i] !== undefined ? [{ path: `${relativeDir}/${name}`, text: texts[i] }] : []))
}

/**
 * A file's text, cut; undefined when missing. With `root`, only where the tools could read it: a repository
 * can commit AGENTS.md, or the folder .roo/rules, as a symbolic link to `~/.aws/credentials` or to a
 * `.rooignore`d file, and this text reaches the model in every request without a tool call.
 */
async function readText(path: string, root?: string): Promise<string | undefined> {
  if (root !== undefined && !guardPath({ workspaceFolders: [root], settings: { files: { readOutsideWorkspace: false } } }, path, "read").ok)
    return undefined
  try {
    const text = (await readRegularFile(path)).toString("utf8")
    return text.length > MAX_RULE_CHARS ? `${text.slice(0, MAX_RULE_CHARS)}\n[... cut at ${MAX_RULE_CHARS} characters]` : text
  } catch {
    return undefined
  }
}
