import type { ParamsOf, ResultOf } from "@agent-lsp/protocol"
import type { VscodeApi } from "./vscode-api"

/** agent/saveDocuments: saves each named open document with TextDocument.save(); answers the saved URIs. */
export async function saveDocuments(vscode: VscodeApi, params: ParamsOf<"saveDocuments">): Promise<ResultOf<"saveDocuments">> {
  const saved: string[] = []
  for (const uri of params.uris) {
    const doc = vscode.workspace.textDocuments.find((d) => sameUri(d.uri.toString(), uri))
    if (!doc) continue
    if (!doc.isDirty || (await doc.save())) saved.push(uri)
  }
  return { saved }
}

/** VS Code encodes URIs its own way (`file:///a%3Ab`), the server another: compare decoded. */
function sameUri(a: string, b: string): boolean {
  return a === b || safeDecode(a) === safeDecode(b)
}

function safeDecode(uri: string): string {
  try {
    return decodeURIComponent(uri)
  } catch {
    return uri
  }
}
