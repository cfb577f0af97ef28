import { z } from "zod"

/** The language server settings: the servers the agent starts itself, the lsp tool, and diagnostics after edits. */

/** Language servers the agent starts itself, by LSP language id (agent.languageServers). */
export const LanguageServersSchema = z
  .record(
    z.string(),
    z.object({
      command: z
        .array(z.string().min(1))
        .min(1)
        .describe('The language server\'s command line, e.g. ["typescript-language-server", "--stdio"].'),
      extensions: z.array(z.string().min(1)).min(1).describe('File extensions it serves, e.g. [".ts", ".tsx"].'),
    }),
  )
  .default({})
export type LanguageServersConfig = z.infer<typeof LanguageServersSchema>

/** agent.languageServers. */
export const LanguageServersSetting = LanguageServersSchema.describe(
  "Language servers the agent starts itself, by LSP language id: they check edited files (diagnostics) and answer the lsp and rename_symbol tools for editors that do not answer agent/diagnostics or agent/languageFeature, and for the ACP and headless fronts. Each starts at its language's first use and stops when idle, inside the OS sandbox (it runs the workspace's own code: docs/sandbox.md, \"Language servers\"). Trusted sources only: they are programs to run.",
)

/** agent.lsp: the lsp and rename_symbol tools over the servers the agent started. */
export const LspSettings = z
  .object({
    maxResults: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(50)
      .describe("Most locations or symbols one lsp tool call lists (the rest are counted)."),
    serverIdleSeconds: z
      .number()
      .positive()
      .default(300)
      .describe("A language server the agent started is shut down after this long without a request."),
    timeoutSeconds: z
      .number()
      .positive()
      .default(20)
      .describe("The longest wait for a language server the agent started to answer one lsp or rename_symbol request, its start included."),
  })
  .prefault({})

/** agent.diagnostics: problems an edit introduced, told to the model. */
export const DiagnosticsSettings = z
  .object({
    enabled: z
      .boolean()
      .default(true)
      .describe(
        "Tell the model about problems (type errors, lint errors) that an edit introduced, when a source of diagnostics exists: the editor's own (agent/diagnostics) or a language server configured in agent.languageServers.",
      ),
    languageServers: LanguageServersSchema.describe(
      "Deprecated: the old name of agent.languageServers, still read (agent.languageServers wins for a language both name). Trusted sources only.",
    ),
    minSeverity: z
      .enum(["error", "warning"])
      .default("error")
      .describe("The least severe new problem that is reported to the model after an edit."),
    settleMs: z
      .number()
      .int()
      .min(0)
      .default(1000)
      .describe(
        "How long after an edit the editor's diagnostics are read (agent/diagnostics), so its language server has re-checked the file.",
      ),
    timeoutSeconds: z
      .number()
      .positive()
      .default(15)
      .describe(
        "The longest wait for a language server the agent started to report a file's problems (a cold TypeScript server takes 5-8 s for its first file).",
      ),
  })
  .prefault({})
