import type { Settings } from "./schema"

/** A agent.modeProfiles entry that names no agent.profiles entry. */
export interface UnknownProfile {
  mode: string
  profile: string
  message: string
}

/**
 * The cross-field rule the per-key validation cannot see: every profile a mode is mapped to must be
 * defined (possibly by another source, so this runs on the merged settings).
 */
export function unknownModeProfiles(settings: Settings): UnknownProfile[] {
  const known = Object.keys(settings.profiles)
  return Object.entries(settings.modeProfiles)
    .filter(([, profile]) => !Object.hasOwn(settings.profiles, profile))
    .map(([mode, profile]) => ({
      mode,
      profile,
      message:
        `names the profile "${profile}", which agent.profiles does not define ` +
        `(${known.length ? `defined: ${known.join(", ")}` : "no profiles are defined"}); the mode "${mode}" uses the top-level model settings`,
    }))
}
