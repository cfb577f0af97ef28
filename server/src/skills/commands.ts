import { homedir } from "node:os"
import { join, relative } from "node:path"
import { displayPath } from "../workspace/sandbox"
import { BUILTIN_COMMANDS } from "./builtin-commands"
import { stringField } from "./frontmatter"
import { listNames, logSkipped, readMarkdown, type Source } from "./markdown-files"

/** A slash command: `/name args` in a task's text, or the run_slash_command tool. */
export interface SlashCommand {
  name: string
  description?: string
  argumentHint?: string
  source: Source | "builtin"
  /** The markdown file (absolute); undefined for built-ins. */
  path?: string
  /** How clients and messages show where it lives: workspace-relative, `~/…`, or "built-in". */
  location: string
  /** A workspace command's root, which its file must really stay inside when it is read again (readCommandBody). */
  confineTo?: string
}

export interface CommandDiscoveryOptions {
  workspaceFolders: readonly string[]
  /** `~`; default $HOME. */
  home?: string
  log?(message: string): void
}

/** Names a user can type after `/`: no spaces or slashes, so `/name args` splits unambiguously. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * Every command, one per name, sorted: `<workspace>/.roo/commands/<name>.md` over `~/.roo/commands/<name>.md`
 * over the built-ins (the first workspace folder first).
 */
export async function discoverCommands(options: CommandDiscoveryOptions): Promise<SlashCommand[]> {
  const home = options.home ?? process.env.HOME ?? homedir()
  const byName = new Map<string, SlashCommand>()
  const scans = [
    ...options.workspaceFolders.map((folder) => ({
      dir: join(folder, ".roo", "commands"),
      source: "workspace" as const,
      confineTo: folder,
    })),
    { dir: join(home, ".roo", "commands"), source: "global" as const, confineTo: undefined },
  ]
  for (const scan of scans) {
    for (const file of await listNames(scan.dir)) {
      if (!file.toLowerCase().endsWith(".md")) continue
      const name = file.slice(0, -3)
      if (byName.has(name)) continue
      const path = join(scan.dir, file)
      if (!NAME.test(name)) {
        logSkipped(
          options.log,
          "Slash command",
          path,
          "its name must be letters, digits, dots, dashes and underscores, starting with a letter or digit",
        )
        continue
      }
      const read = await readMarkdown(path, scan.confineTo)
      if (!read.ok) {
        logSkipped(options.log, "Slash command", path, read.reason)
        continue
      }
      const location = scan.source === "workspace" ? displayPath(options.workspaceFolders, path) : `~/${relative(home, path)}`
      const description = stringField(read.parsed.data, "description")
      const argumentHint = stringField(read.parsed.data, "argument-hint")
      byName.set(name, {
        name,
        source: scan.source,
        path,
        location,
        ...(scan.confineTo !== undefined ? { confineTo: scan.confineTo } : {}),
        ...(description ? { description } : {}),
        ...(argumentHint ? { argumentHint } : {}),
      })
    }
  }
  for (const builtin of BUILTIN_COMMANDS) {
    if (byName.has(builtin.name)) continue
    const { name, description, argumentHint } = builtin
    byName.set(name, { name, description, source: "builtin", location: "built-in", ...(argumentHint ? { argumentHint } : {}) })
  }
  return [...byName.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** The command's text after its frontmatter, verbatim; undefined when its file is gone. */
export async function readCommandBody(command: SlashCommand): Promise<string | undefined> {
  if (!command.path) return BUILTIN_COMMANDS.find((b) => b.name === command.name)?.body
  // Confined again: the file may have become a link out of the workspace since discovery.
  const read = await readMarkdown(command.path, command.confineTo)
  return read.ok ? read.parsed.body : undefined
}

/**
 * `/name rest` at the very start of a text → the name and the rest (trimmed); undefined when the text
 * does not start with a slash and a possible command name (so `/etc/hosts is broken` is not a command).
 */
export function parseSlashInvocation(text: string): { name: string; args: string } | undefined {
  if (!text.startsWith("/")) return undefined
  const space = text.search(/\s/)
  const name = space < 0 ? text.slice(1) : text.slice(1, space)
  if (!NAME.test(name)) return undefined
  return { name, args: space < 0 ? "" : text.slice(space).trim() }
}

/** What the model gets for a command: its body and the arguments. */
export function renderCommand(command: SlashCommand, body: string, args: string): string {
  const lines = [`Slash command /${command.name} (${command.location}):`, "", body.trim()]
  if (args) lines.push("", `Arguments: ${args}`)
  return lines.join("\n")
}

/**
 * A task's or message's text that starts with `/name args` for a known command becomes the command's
 * body and the args; any other text (including an unknown `/word`) comes back unchanged.
 */
export async function expandSlashCommand(text: string, workspaceFolders: readonly string[]): Promise<string> {
  const invocation = parseSlashInvocation(text)
  if (!invocation) return text
  const found = (await discoverCommands({ workspaceFolders })).find((c) => c.name === invocation.name)
  if (!found) return text
  const body = await readCommandBody(found)
  return body === undefined ? text : renderCommand(found, body, invocation.args)
}
