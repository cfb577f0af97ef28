/**
 * Slash commands that exist without any file, where Roo-Code has them: `init`. A workspace or global
 * command file with the same name replaces a built-in. The texts are ours.
 */
export interface BuiltinCommand {
  name: string
  description: string
  argumentHint?: string
  body: string
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  {
    name: "init",
    description: "Study the codebase and write (or improve) AGENTS.md for coding agents",
    argumentHint: "[what to focus on]",
    body: `Create or update AGENTS.md at the workspace root: a short guide that lets a coding agent be productive in this repository at once.

1. Look for what already exists: AGENTS.md, CLAUDE.md, .cursorrules or .cursor/rules/, .github/copilot-instructions.md, .roo/rules*/, the README. If AGENTS.md exists, improve it instead of replacing it, and carry over the rules the other files hold.
2. Find the stack and the commands: how to build, lint and test, and especially how to run a single test. Read the package manifests, CI files and scripts; do not guess.
3. Read enough code to find what is not obvious: project-specific helpers that must be used, conventions a linter does not enforce, surprising folder layouts, gotchas that cause silent failures.
4. Write AGENTS.md starting with "# AGENTS.md" and one line saying it guides agents working in this repository. Keep it to about 20 lines unless the project really needs more. Leave out anything an experienced developer would assume (standard scripts, framework defaults).
5. Only write what you verified by reading files. Finish with attempt_completion summarising what you added or changed.`,
  },
]
