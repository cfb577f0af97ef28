import { pathToFileURL } from "node:url"
import type { AgentContext, FileSystemCapabilities } from "@agentclientprotocol/sdk"
import { DiskEditorPort } from "../../core/disk-editor"
import type { EditOutcome, EditorPort, OpenDocument } from "../../tools/context"

/** How long a file read or write through the client may take (the client may have to load a buffer). */
const FS_TIMEOUT_MS = 30_000

/**
 * EditorPort over ACP. When the client declares `fs.readTextFile`, every read (including the text an edit
 * is computed from and re-checked against) is `fs/read_text_file`, so unsaved buffers are seen; with
 * `fs.writeTextFile`, every edit is `fs/write_text_file`, so it lands in the editor. Without them the
 * methods are absent and it is the disk port: the tools use the disk and no fs/* request is ever sent.
 * Paths are absolute.
 */
export class AcpEditorPort extends DiskEditorPort implements EditorPort {
  readonly readDocument?: (path: string) => Promise<OpenDocument | undefined>
  readonly writeDocument?: (path: string, text: string) => Promise<EditOutcome>

  constructor(
    private readonly client: AgentContext,
    /** The session the request is for (ACP fs requests name one): the one prompting in this folder. */
    private readonly sessionId: () => string | undefined,
    fs: FileSystemCapabilities | undefined,
  ) {
    super()
    if (fs?.readTextFile) this.readDocument = (path) => this.read(path)
    if (fs?.writeTextFile) this.writeDocument = (path, text) => this.write(path, text)
  }

  private async read(path: string): Promise<OpenDocument | undefined> {
    const sessionId = this.sessionId()
    if (!sessionId) return undefined
    try {
      const { content } = await this.client.request("fs/read_text_file", { sessionId, path }, bounded())
      return { path, uri: pathToFileURL(path).toString(), version: 0, text: content, dirtyByUser: false }
    } catch {
      // No such file in the editor (or it refused): the disk decides whether the file exists.
      return undefined
    }
  }

  private async write(path: string, content: string): Promise<EditOutcome> {
    const sessionId = this.sessionId()
    if (!sessionId) return { ok: false, reason: "No ACP session is active to write through; the file is unchanged." }
    try {
      await this.client.request("fs/write_text_file", { sessionId, path, content }, bounded())
      return { ok: true }
    } catch (error) {
      return {
        ok: false,
        reason: `The editor refused to write it (${(error as Error).message}); the file is unchanged. Read it again and retry, or ask the user.`,
      }
    }
  }
}

function bounded() {
  return { cancellationSignal: AbortSignal.timeout(FS_TIMEOUT_MS), stopWaitingOnCancel: true }
}
