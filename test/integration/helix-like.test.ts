import { existsSync, readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { parse } from "smol-toml"
import { ResponseError } from "vscode-jsonrpc"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { startFakeAnthropic, type FakeAnthropic } from "../support/fake-anthropic"
import { startServer, type ServerHarness } from "../support/server-harness"
import { tempWorkspace, type TempWorkspace } from "../support/temp-workspace"

// A client that behaves like Helix 25.07 as released. Its `initialize` capabilities are exactly what
// helix-lsp/src/client.rs declares (25.07: workspace + textDocument + `window: { workDoneProgress }` +
// general.positionEncodings; no window.showMessage, no window.showDocument, no experimental). Helix answers
// window/showMessageRequest with MethodNotFound (helix-term/src/application.rs has no handler for it), shows
// window/showMessage in its status line, and answers workspace/configuration from the server's `config`,
// which it also sends as initializationOptions. The test drives a whole task with workspace/executeCommand
// and reads the transcript from the file whose path the server announced.

/** Helix 25.07's ClientCapabilities, field for field (optional fields it leaves unset are absent). */
export const HELIX_25_07_CAPABILITIES = {
  workspace: {
    configuration: true,
    didChangeConfiguration: { dynamicRegistration: false },
    workspaceFolders: true,
    applyEdit: true,
    symbol: { dynamicRegistration: false },
    executeCommand: { dynamicRegistration: false },
    inlayHint: { refreshSupport: false },
    workspaceEdit: {
      documentChanges: true,
      resourceOperations: ["create", "rename", "delete"],
      failureHandling: "abort",
      normalizesLineEndings: false,
    },
    didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: false },
    fileOperations: { willRename: true, didRename: true },
  },
  textDocument: {
    completion: {
      completionItem: {
        snippetSupport: true,
        resolveSupport: { properties: ["documentation", "detail", "additionalTextEdits"] },
        insertReplaceSupport: true,
        deprecatedSupport: true,
        tagSupport: { valueSet: [1] },
      },
      completionItemKind: {},
    },
    hover: { contentFormat: ["markdown"] },
    signatureHelp: {
      signatureInformation: {
        documentationFormat: ["markdown"],
        parameterInformation: { labelOffsetSupport: true },
        activeParameterSupport: true,
      },
    },
    rename: { dynamicRegistration: false, prepareSupport: true, honorsChangeAnnotations: false },
    formatting: { dynamicRegistration: false },
    codeAction: {
      codeActionLiteralSupport: {
        codeActionKind: {
          valueSet: [
            "",
            "quickfix",
            "refactor",
            "refactor.extract",
            "refactor.inline",
            "refactor.rewrite",
            "source",
            "source.organizeImports",
          ],
        },
      },
      isPreferredSupport: true,
      disabledSupport: true,
      dataSupport: true,
      resolveSupport: { properties: ["edit", "command"] },
    },
    publishDiagnostics: { versionSupport: true, tagSupport: { valueSet: [1, 2] } },
    inlayHint: { dynamicRegistration: false },
  },
  window: { workDoneProgress: true },
  general: { positionEncodings: ["utf-8", "utf-32", "utf-16"] },
}

const diff = ["<<<<<<< SEARCH", ":start_line:1", "-------", "hello", "=======", "hello there", ">>>>>>> REPLACE"].join("\n")

let ws: TempWorkspace
let fake: FakeAnthropic
let server: ServerHarness

beforeEach(async () => {
  ws = await tempWorkspace({ "a.txt": "hello\nworld\n" })
  fake = await startFakeAnthropic([
    { text: "Reading a.txt.", toolCalls: [{ name: "read_file", input: { path: "a.txt" } }] },
    { toolCalls: [{ name: "apply_diff", input: { path: "a.txt", diff } }] },
    { toolCalls: [{ name: "attempt_completion", input: { result: "Greeting changed." } }] },
  ])
  server = await startServer({ workspace: ws.root, apiUrl: fake.url, capabilities: HELIX_25_07_CAPABILITIES })
  server.handlers.showMessageRequest = () => {
    throw new ResponseError(-32601, "Method not found: window/showMessageRequest")
  }
})
afterEach(async () => {
  await server?.stop()
  await fake.close()
  await ws.cleanup()
})

describe("a Helix 25.07-like client (its exact capabilities; showMessageRequest unsupported)", () => {
  it("runs a task approved with agent.respond; the transcript path is announced and the file follows the task", async () => {
    server.openDocument(ws.path("a.txt"))
    const { taskId } = await server.request("workspace/executeCommand", {
      command: "agent.newTask",
      arguments: ["change hello to hello there"],
    })
    expect(taskId).toBeTruthy()

    // Helix 25.07 shows window/showMessage in its status line: the start message names the transcript file.
    const started = await server.waitFor(
      () =>
        server.notifications.find((n) => n.method === "window/showMessage" && n.params.message.includes(`started task ${taskId}`))?.params
          .message as string | undefined,
      15_000,
      "the start message",
    )
    const transcriptPath = /transcript: (\S+\.md)/.exec(started)?.[1]
    expect(transcriptPath, started).toBeDefined()
    expect(transcriptPath!.startsWith(server.stateHome)).toBe(true)

    // The approval is announced with its requestId (showMessageRequest failed); answer it like a Helix user.
    const announce = await server.waitFor(
      () =>
        server.notifications.find((n) => n.method === "window/showMessage" && /agent\.respond "([^"]+)"/.test(n.params.message))?.params
          .message as string | undefined,
      20_000,
      "the approval announcement",
    )
    const requestId = /agent\.respond "([^"]+)"/.exec(announce)![1]
    await server.waitFor(
      () => existsSync(transcriptPath!) && readFileSync(transcriptPath!, "utf8").includes(requestId),
      10_000,
      "the pending approval in the transcript file",
    )
    await server.request("workspace/executeCommand", { command: "agent.respond", arguments: [requestId, "allow_once"] })

    const transcript = await server.waitFor(
      () => {
        const text = existsSync(transcriptPath!) ? readFileSync(transcriptPath!, "utf8") : ""
        return text.includes("Greeting changed.") ? text : undefined
      },
      20_000,
      "the completed transcript",
    )

    expect(transcript).toContain("# change hello to hello there")
    expect(transcript).toContain("Reading a.txt.")
    expect(transcript).toMatch(/\*\*read_file\*\* `a\.txt`/)
    expect(transcript).toMatch(/\*\*apply_diff\*\* `a\.txt` — awaiting approval/)
    expect(transcript).toContain(`### Approval needed (\`${requestId}\`)`)
    expect(transcript).toContain(`:lsp-workspace-command agent.respond "${requestId}" "allow_once"`)
    expect(transcript).toContain("## Completed")

    // The edit reached the buffer and, with no agent/saveDocuments, the server wrote the disk itself.
    expect(server.docText(ws.path("a.txt"))).toBe("hello there\nworld\n")
    expect(await readFile(ws.path("a.txt"), "utf8")).toBe("hello there\nworld\n")
    // Nothing this client did not declare was sent: no agent/*, no showDocument.
    expect(server.serverRequests.filter((r) => r.method.startsWith("agent/") || r.method === "window/showDocument")).toEqual([])
    expect(server.updates).toEqual([])

    // :lsp-workspace-command agent.showTranscript answers with the path and puts it in the status line.
    const shown = await server.request("workspace/executeCommand", { command: "agent.showTranscript", arguments: [taskId] })
    expect(shown.path).toBe(transcriptPath)
    await server.waitFor(
      () =>
        server.notifications.some(
          (n) => n.method === "window/showMessage" && n.params.message.includes(`transcript of task ${taskId}: ${transcriptPath}`),
        ) || undefined,
      5_000,
      "the transcript path message",
    )
  }, 60_000)
})

describe("clients/helix/languages.toml", () => {
  const snippet = parse(readFileSync(new URL("../../clients/helix/languages.toml", import.meta.url), "utf8")) as any
  // Every language's `language-servers` from Helix 25.07's languages.toml (tag 25.07 of helix-editor/helix).
  const helixDefaults = JSON.parse(
    readFileSync(new URL("../fixtures/helix-25.07-language-servers.json", import.meta.url), "utf8"),
  ) as Record<string, string[]>

  it("keeps Helix 25.07's default servers of every language it lists, in order, then agent-lsp", () => {
    expect(snippet.language.length).toBeGreaterThan(0)
    for (const language of snippet.language) {
      expect(helixDefaults[language.name], `${language.name} is not a Helix 25.07 language`).toBeDefined()
      expect(language["language-servers"], language.name).toEqual([...helixDefaults[language.name]!, "agent-lsp"])
    }
  })

  it("starts without a warning when Helix sends its config as initializationOptions and workspace/configuration", async () => {
    const config = snippet["language-server"]["agent-lsp"].config
    const quiet = await startServer({
      workspace: ws.root,
      apiUrl: fake.url,
      capabilities: HELIX_25_07_CAPABILITIES,
      initializationOptions: config,
      skipInitialize: true,
    })
    // Helix answers each item from `config`, walking the section's dotted parts (application.rs).
    quiet.handlers.configuration = (params: { items: { section?: string }[] }) =>
      params.items.map((item) =>
        (item.section ?? "")
          .split(".")
          .filter(Boolean)
          .reduce((value: any, part) => value?.[part] ?? null, config),
      )
    await quiet.request("initialize", {
      processId: null,
      rootUri: null,
      workspaceFolders: [{ uri: `file://${ws.root}`, name: "ws" }],
      capabilities: HELIX_25_07_CAPABILITIES,
      initializationOptions: config,
      clientInfo: { name: "helix", version: "25.7" },
    })
    quiet.notifyServer("initialized", {})
    await quiet.waitFor(
      () => quiet.serverRequests.some((r) => r.method === "workspace/configuration") || undefined,
      10_000,
      "workspace/configuration",
    )
    // Give the server time to report anything it did not like about the answer.
    await quiet.request("workspace/executeCommand", { command: "agent.listTasks", arguments: [] })
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(quiet.notifications.filter((n) => n.method === "window/showMessage")).toEqual([])
    await quiet.stop()
  })
})
