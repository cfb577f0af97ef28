import * as vscode from "vscode"
import type { ReviewFile } from "./review"

/** Scheme of the Changes view's items: the file's path, with what the task did to it in the query. */
export const REVIEW_ITEM_SCHEME = "agent-lsp-review"

/** The letter and colour of each status, as VS Code's Source Control shows them. */
const LOOK: Record<ReviewFile["status"], { badge: string; color: string; what: string }> = {
  modified: { badge: "M", color: "gitDecoration.modifiedResourceForeground", what: "Modified" },
  created: { badge: "A", color: "gitDecoration.addedResourceForeground", what: "Created" },
  deleted: { badge: "D", color: "gitDecoration.deletedResourceForeground", what: "Deleted" },
}

/**
 * The resourceUri of a file's item in the Changes view. Its path is the file's (so the file icon theme picks
 * the icon by name, as in the Explorer), its scheme is the view's own (so the letter decorates the view only,
 * never the file in the Explorer or its tabs, where Source Control has its own), and its query carries the
 * status, so the decoration needs no state of its own.
 */
export function reviewItemUri(file: ReviewFile): vscode.Uri {
  const query = new URLSearchParams({ status: file.status, ...(file.byCommand ? { byCommand: "1" } : {}) }).toString()
  return vscode.Uri.parse(file.uri).with({ scheme: REVIEW_ITEM_SCHEME, query })
}

/** The M/A/D letter (and its tooltip) on the Changes view's files. */
export class ReviewDecorations implements vscode.FileDecorationProvider {
  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== REVIEW_ITEM_SCHEME) return undefined
    const query = new URLSearchParams(uri.query)
    const look = LOOK[query.get("status") as ReviewFile["status"]]
    if (!look) return undefined
    const by = query.get("byCommand") ? " by a command the agent ran" : " by the agent"
    return new vscode.FileDecoration(look.badge, `${look.what}${by}`, new vscode.ThemeColor(look.color))
  }
}
