import { join } from "node:path"
import { readRegularFile } from "./regular-file"

/** The workspace settings file, relative to a workspace folder: `{ "agent": { … } }`. Untrusted: it only tightens. */
export const WORKSPACE_SETTINGS_FILE = join(".agent-lsp", "settings.json")

/**
 * Reads a workspace folder's `.agent-lsp/settings.json`. A missing file is normal (no value); unreadable or
 * invalid JSON is a problem string for the user. Read again at each task start, so an edit takes effect
 * on the next task.
 */
export async function readWorkspaceSettings(folder: string): Promise<{ value?: unknown; problem?: string }> {
  const path = join(folder, WORKSPACE_SETTINGS_FILE)
  let text: string
  try {
    text = (await readRegularFile(path)).toString("utf8")
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === "ENOENT" || code === "ENOTDIR") return {}
    return { problem: `cannot read ${path}: ${(error as Error).message}` }
  }
  try {
    const json = JSON.parse(text) as unknown
    if (!json || typeof json !== "object" || Array.isArray(json)) return { problem: `${path} must hold an object: { "agent": { … } }` }
    return { value: (json as { agent?: unknown }).agent }
  } catch (error) {
    return { problem: `${path} is not valid JSON: ${(error as Error).message}` }
  }
}
