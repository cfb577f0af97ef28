import { z } from "zod"
import { AgentMethods } from "./names"
import { ApprovalOption, Diagnostic, Position, TaskUpdate } from "./types"
import { type MethodTriple, request } from "./method-triple"

/* What the server sends a client (agent/taskUpdate, agent/requestApproval, …): their summaries and zod schemas. */

export const TaskUpdateNotification: MethodTriple<
  typeof AgentMethods.taskUpdate,
  z.ZodObject<{ taskId: z.ZodString; seq: z.ZodNumber; update: typeof TaskUpdate }>,
  z.ZodVoid
> = {
  method: AgentMethods.taskUpdate,
  params: z.object({
    taskId: z.string().describe("The task."),
    seq: z.number().int().describe("Increases by one per update of the task: a gap means a lost update."),
    update: TaskUpdate.describe("What happened, discriminated by `kind`."),
  }),
  result: z.void(),
  direction: "serverToClient",
  kind: "notification",
  summary: "One step of a task as it runs (clients that declared taskUpdates).",
}

/** A client that declared `deferredAnswers` may answer at once with this and answer later with agent/respond. */
export const Deferred = z.object({ deferred: z.literal(true).describe("The answer comes later, with agent/respond.") })

export const RequestApproval = request(
  AgentMethods.requestApproval,
  "Asks the user to approve a tool call, with its diff or command (clients that declared requestApproval).",
  z.object({
    requestId: z.string().describe("Names the request in agent/respond."),
    taskId: z.string().describe("The task asking."),
    callId: z.string().describe("The tool call (as in toolCall updates)."),
    tool: z.string().describe("The tool's name."),
    title: z.string().describe("One line to ask with."),
    detail: z.string().describe("More about what would happen (paths, working folder)."),
    diff: z.string().optional().describe("Unified diff of a proposed edit (a new file: against /dev/null)."),
    command: z.string().optional().describe("The full command line of a proposed command."),
    proposedText: z.string().optional().describe("The whole proposed file content, for clients that show or let the user edit it."),
    options: z.array(ApprovalOption).describe("The answers to offer, in order."),
  }),
  z.union([
    Deferred,
    z.object({
      optionId: z.string().describe("The chosen option."),
      feedback: z.string().optional().describe("Why the user rejected, passed to the model."),
      editedText: z.string().optional().describe("The file content as the user edited the proposal."),
    }),
  ]),
  "serverToClient",
)
export const AskFollowup = request(
  AgentMethods.askFollowup,
  "Asks the user the model's question, with suggested answers (clients that declared askFollowup).",
  z.object({
    requestId: z.string().describe("Names the question in agent/respond."),
    taskId: z.string().describe("The task asking."),
    question: z.string().describe("The whole question (may be long: show it whole)."),
    suggestions: z
      .array(
        z.object({
          text: z.string().describe("A suggested answer."),
          mode: z.string().optional().describe("The mode the task switches to with this answer."),
        }),
      )
      .describe("Suggested answers; the user may also type their own."),
  }),
  z.union([Deferred, z.object({ answer: z.string().describe("The user's answer.") })]),
  "serverToClient",
)
export const SaveDocuments = request(
  AgentMethods.saveDocuments,
  "Asks the editor to save buffers the agent edited, so the file is never written behind them (clients that declared saveDocuments).",
  z.object({ uris: z.array(z.string()).describe("The documents to save.") }),
  z.object({ saved: z.array(z.string()).describe("The documents now saved (a buffer with the user's own unsaved changes is left out).") }),
  "serverToClient",
)

export const Diagnostics = request(
  AgentMethods.diagnostics,
  "Asks the editor for its own diagnostics of files the agent edited, to tell the model about new problems (clients that declared experimental.agentDiagnostics).",
  z.object({ uris: z.array(z.string()).describe("The files to report on.") }),
  z.object({
    diagnostics: z
      .array(z.object({ uri: z.string().describe("The file."), items: z.array(Diagnostic).describe("Its diagnostics now.") }))
      .describe("One entry per file the editor knows diagnostics of."),
  }),
  "serverToClient",
)

/** The language-server requests the lsp and rename_symbol tools make, by the names the model uses. */
export const LanguageOperation = z.enum([
  "goToDefinition",
  "findReferences",
  "hover",
  "documentSymbol",
  "workspaceSymbol",
  "goToImplementation",
  "incomingCalls",
  "outgoingCalls",
  "rename",
])
export type LanguageOperation = z.infer<typeof LanguageOperation>

export const LanguageFeature = request(
  AgentMethods.languageFeature,
  "Asks the editor's own language servers one question for the lsp tool or a rename (clients that declared experimental.agent.languageFeature). The editor sends the matching LSP request (textDocument/definition, references, hover, documentSymbol, workspace/symbol, implementation, callHierarchy/incomingCalls or outgoingCalls after prepareCallHierarchy, rename) to the servers of the file's buffer, loaded without being shown, and answers with their result.",
  z.object({
    operation: LanguageOperation.describe(
      "goToDefinition, findReferences, hover, documentSymbol, workspaceSymbol, goToImplementation, incomingCalls, outgoingCalls or rename.",
    ),
    uri: z.string().optional().describe("The file (every operation but workspaceSymbol)."),
    position: Position.optional().describe("Where in the file (zero-based LSP Position; not for documentSymbol or workspaceSymbol)."),
    query: z.string().optional().describe("What to look for (workspaceSymbol)."),
    newName: z.string().optional().describe("The new name (rename)."),
  }),
  z
    .unknown()
    .describe(
      "The language server's own LSP result for that request (Location[] or LocationLink[], Hover, DocumentSymbol[] or SymbolInformation[], CallHierarchyIncomingCall[] / OutgoingCall[], WorkspaceEdit), or null when no language server covers the file.",
    ),
  "serverToClient",
)
