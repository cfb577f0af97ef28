import { homedir } from "node:os"
import { join, relative } from "node:path"
import { displayPath } from "../workspace/sandbox"
import { stringField } from "./frontmatter"
import { listNames, logSkipped, readMarkdown, type ScanDir, type Source } from "./markdown-files"

/** A skill as discovered (agentskills.io layout): `<skills dir>/<name>/SKILL.md`. */
export interface Skill {
  name: string
  description: string
  /** The SKILL.md file (absolute). */
  path: string
  /** How the prompt and clients show where it lives: workspace-relative, or `~/…` for the user's own. */
  location: string
  source: Source
  /** Set for skills in a `skills-<mode>/` folder: only that mode sees them. */
  mode?: string
  /** Frontmatter `modeSlugs`: when present, only these modes see the skill. */
  modeSlugs?: string[]
  /** A workspace skill's root, which its file must really stay inside when it is read again (readSkillBody). */
  confineTo?: string
}

export interface DiscoveryOptions {
  workspaceFolders: readonly string[]
  /** `~`; default $HOME. */
  home?: string
  /** Told once per file and reason why a skill was skipped. */
  log?(message: string): void
  /** Called with each folder before discovery reads it or a file in it (a cache watches them). */
  beforeRead?(dir: string): void
}

/** Folders that hold skills, under `.roo/` and `.agents/` of each workspace folder and of the home folder. */
const CONFIG_DIRS = [".roo", ".agents"]
const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/** Every valid skill, of every mode, in precedence order (see skillsForMode). Invalid ones are logged and skipped. */
export async function discoverSkills(options: DiscoveryOptions): Promise<Skill[]> {
  const home = homeOf(options)
  // Every folder is read at once (order kept by Promise.all): one round of the thread pool per level, not one
  // per folder, since discovery runs before each model request.
  const look = (dir: string) => (options.beforeRead?.(dir), dir)
  const scans = await skillDirs(options.workspaceFolders, home, look)
  const perDir = await Promise.all(
    scans.map(async (scan) =>
      Promise.all((await listNames(look(scan.dir))).map((name) => (look(join(scan.dir, name)), loadSkill(scan, name, options, home)))),
    ),
  )
  return perDir.flat().filter((skill): skill is Skill => skill !== undefined)
}

/**
 * The skills one mode sees, one per name: workspace over global, then a `skills-<mode>/` skill over a
 * generic one, then the first found (`.roo/` before `.agents/`, the first workspace folder first).
 */
export function skillsForMode(skills: readonly Skill[], mode: string): Skill[] {
  const chosen = new Map<string, Skill>()
  for (const skill of skills) {
    if (skill.mode !== undefined && skill.mode !== mode) continue
    if (skill.modeSlugs && !skill.modeSlugs.includes(mode)) continue
    const current = chosen.get(skill.name)
    if (!current || rank(skill) < rank(current)) chosen.set(skill.name, skill)
  }
  return [...chosen.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** The SKILL.md text after the frontmatter, verbatim; undefined when the file is gone or no longer valid. */
export async function readSkillBody(skill: Skill): Promise<string | undefined> {
  // Confined again: the file may have become a link out of the workspace since discovery.
  const read = await readMarkdown(skill.path, skill.confineTo)
  return read.ok ? read.parsed.body : undefined
}

function rank(skill: Skill): number {
  return (skill.source === "workspace" ? 0 : 2) + (skill.mode !== undefined ? 0 : 1)
}

async function skillDirs(
  workspaceFolders: readonly string[],
  home: string,
  look: (dir: string) => string,
): Promise<(ScanDir & { mode?: string })[]> {
  type Dir = ScanDir & { mode?: string }
  const add = (base: string, source: Source, confineTo?: string): Promise<Dir[]>[] =>
    CONFIG_DIRS.map(async (configDir) => {
      look(base)
      const root = join(base, configDir)
      const dirs: Dir[] = [{ dir: join(root, "skills"), source, confineTo }]
      for (const entry of await listNames(look(root))) {
        if (entry.startsWith("skills-") && entry.length > "skills-".length)
          dirs.push({ dir: join(root, entry), source, confineTo, mode: entry.slice("skills-".length) })
      }
      return dirs
    })
  const found = await Promise.all([...workspaceFolders.flatMap((folder) => add(folder, "workspace", folder)), ...add(home, "global")])
  return found.flat()
}

async function loadSkill(
  scan: ScanDir & { mode?: string },
  folderName: string,
  options: DiscoveryOptions,
  home: string,
): Promise<Skill | undefined> {
  const path = join(scan.dir, folderName, "SKILL.md")
  const skip = (reason: string) => void logSkipped(options.log, "Skill", path, reason)
  const read = await readMarkdown(path, scan.confineTo)
  if (!read.ok) return read.reason.startsWith("the file does not exist") ? undefined : skip(read.reason)
  const data = read.parsed.data
  const name = stringField(data, "name")
  if (!name) return skip('its frontmatter has no "name"')
  if (name !== folderName) return skip(`its name "${name}" differs from its folder name "${folderName}"`)
  if (name.length > 64 || !NAME.test(name)) return skip(`its name "${name}" must be 1-64 lowercase letters, digits and single hyphens`)
  const description = stringField(data, "description")
  if (!description) return skip('its frontmatter has no "description"')
  if (description.length > 1024) return skip("its description is longer than 1024 characters")
  const modeSlugs = data.modeSlugs
  if (modeSlugs !== undefined && !(Array.isArray(modeSlugs) && modeSlugs.every((m) => typeof m === "string")))
    return skip('"modeSlugs" must be a list of mode slugs')
  return {
    name,
    description,
    path,
    location: scan.source === "workspace" ? displayPath(options.workspaceFolders, path) : `~/${relative(home, path)}`,
    source: scan.source,
    ...(scan.mode !== undefined ? { mode: scan.mode } : {}),
    ...(modeSlugs !== undefined ? { modeSlugs: modeSlugs as string[] } : {}),
    ...(scan.confineTo !== undefined ? { confineTo: scan.confineTo } : {}),
  }
}

function homeOf(options: DiscoveryOptions): string {
  return options.home ?? process.env.HOME ?? homedir()
}
