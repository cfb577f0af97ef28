import { readFile } from "node:fs/promises"
import { globalSettingsFile } from "./paths"

/**
 * Reads the global settings file. Accepts `{ "agent": {...} }` or the bare section. A missing file is
 * normal (undefined) unless the user named it (`required`: AGENT_LSP_SETTINGS_FILE); unreadable JSON is
 * reported as a problem string.
 */
export async function readGlobalSettings(
  path = globalSettingsFile(),
  { required = false }: { required?: boolean } = {},
): Promise<{ value?: unknown; problem?: string }> {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return required ? { problem: missingSettingsFile(path) } : {}
    return { problem: `cannot read ${path}: ${(error as Error).message}` }
  }
  try {
    const json = JSON.parse(text) as Record<string, unknown>
    return { value: json && typeof json === "object" && "agent" in json ? json.agent : json }
  } catch (error) {
    return { problem: `${path} is not valid JSON: ${(error as Error).message}` }
  }
}

/** What a user is told when AGENT_LSP_SETTINGS_FILE names a file that is not there. */
export function missingSettingsFile(path: string): string {
  return `AGENT_LSP_SETTINGS_FILE names ${path}, which does not exist: create it, or unset the variable to use ${globalSettingsFile()}`
}
