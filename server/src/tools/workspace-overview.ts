import { listDirectory } from "../workspace/listing"

/**
 * A bounded, breadth-first listing of a workspace folder for the model's first turn (task/environment.ts):
 * the same rules as list_files (.gitignore honoured, dependency and hidden folders not entered), with
 * .rooignore'd entries left out. Stops at `limit` entries, so a 100k-file tree costs no more than a small one.
 */
export async function workspaceOverview(
  folder: string,
  workspaceFolders: readonly string[],
  limit: number,
): Promise<{ entries: { path: string; isDirectory: boolean }[]; truncated: boolean }> {
  const listing = await listDirectory(folder, { recursive: true, limit, workspaceFolders })
  return {
    entries: listing.entries.filter((e) => !e.rooIgnored).map((e) => ({ path: e.absPath, isDirectory: e.isDirectory })),
    truncated: listing.truncated,
  }
}
