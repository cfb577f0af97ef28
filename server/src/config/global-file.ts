import { readFile } from "node:fs/promises"
import { globalSettingsFile } from "./paths"
import { withLoginProvider } from "./stored-login"

/**
 * Reads the global settings file. Accepts `{ "agent": {...} }` or the bare section. A missing file is
 * normal (undefined); unreadable JSON is reported as a problem string. The provider of `agent-lsp login`
 * applies where the file names none.
 */
export async function readGlobalSettings(path = globalSettingsFile()): Promise<{ value?: unknown; problem?: string }> {
  let text: string
  try {
    text = await readFile(path, "utf8")
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
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
