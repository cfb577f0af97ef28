import { applyPatch, parsePatch } from "diff"

/** One file of a many-file change: its path as the diff names it and its text after the change. */
export interface ProposedFile {
  path: string
  after: string
}

/**
 * The files a many-file unified diff (a rename's approval: one `--- a/x` / `+++ b/x` section per file)
 * changes, each with its text after the change, from `textOf` (the file's text now). Undefined when the
 * diff names fewer than two files, creates or deletes one, or does not apply to the text now: the
 * approval then shows the diff as text only.
 */
export async function proposedFiles(
  diff: string,
  textOf: (path: string) => Promise<string | undefined>,
): Promise<ProposedFile[] | undefined> {
  let patches: ReturnType<typeof parsePatch>
  try {
    patches = parsePatch(diff)
  } catch {
    return undefined
  }
  if (patches.length < 2) return undefined
  const out: ProposedFile[] = []
  for (const patch of patches) {
    const oldName = patch.oldFileName ?? ""
    const newName = patch.newFileName ?? ""
    if (!oldName.startsWith("a/") || newName !== `b/${oldName.slice(2)}`) return undefined
    const path = oldName.slice(2)
    const before = await textOf(path)
    if (before === undefined) return undefined
    const after = applyPatch(before.replace(/\r\n/g, "\n"), patch)
    if (after === false) return undefined
    out.push({ path, after })
  }
  return out
}
