import { readFile } from "node:fs/promises"
import { globalSettingsFile } from "./paths"
import { withLoginProvider } from "./stored-login"

/**
 * Reads the global settings file. Accepts `{ "agent": {...} }` or the bare section. A missing file is
 * normal (undefined) unless the user named it (`required`: AGENT_LSP_SETTINGS_FILE); unreadable JSON is
 * reported as a problem string. The provider of `agent-lsp login` applies where the file names none.
 */
export async function readGlobalSettings(
  path = globalSettingsFile(),
  { required = false }: { required?: boolean } = {},
): Promise<{ value?: unknown; problem?: string }> {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      if (required) return { problem: missingSettingsFile(path) }
      const value = withLoginProvider(undefined)
      return value === undefined ? {} : { value }
    }
    return { problem: `cannot read ${path}: ${(error as Error).message}` }
  }
  try {
    const json = JSON.parse(text) as Record<string, unknown>
    return { value: withLoginProvider(json && typeof json === "object" && "agent" in json ? json.agent : json) }
  } catch (error) {
    return { problem: `${path} is not valid JSON: ${(error as Error).message}` }
  }
}

/** What a user is told when AGENT_LSP_SETTINGS_FILE names a file that is not there. */
export function missingSettingsFile(path: string): string {
  return `AGENT_LSP_SETTINGS_FILE names ${path}, which does not exist: create it, or unset the variable to use ${globalSettingsFile()}`
}
