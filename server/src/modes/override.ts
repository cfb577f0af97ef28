import { groupName, groupOptions, type ModeConfig } from "./types"

/**
 * The trust rule for modes: a workspace `.roomodes` (a cloned repository controls it) may add modes, but
 * redefining a built-in or global mode's slug may only tighten it. Every group the override lists must be
 * one the original has, and a group the original restricts with `fileRegex` must keep exactly that
 * restriction: whether one regular expression matches only paths another matches is not decidable here in
 * general, so a changed `fileRegex` is not taken as narrowing. A group the original leaves open may gain a
 * `fileRegex` (that only narrows it). Prompt texts (role, instructions) may change.
 *
 * Returns the first key that would widen the original (`groups.edit`, `groups.edit.fileRegex`), or
 * undefined when the override only tightens.
 */
export function wideningKey(original: ModeConfig, override: ModeConfig): string | undefined {
  const originalGroups = new Map(original.groups.map((entry) => [groupName(entry), groupOptions(entry)]))
  for (const entry of override.groups) {
    const name = groupName(entry)
    const before = originalGroups.get(name)
    if (!before) return `groups.${name}`
    if (before.fileRegex === undefined) continue
    if (groupOptions(entry).fileRegex !== before.fileRegex) return `groups.${name}.fileRegex`
  }
  return undefined
}
