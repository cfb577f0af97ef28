import { z } from "zod"
import { defineTool, textResult } from "./tool"

/** How-tos the prompt names instead of inlining them: the model fetches one only when it needs it. */
const INSTRUCTIONS = {
  create_mcp_server: `# Creating an MCP server

1. Write the server with the official SDK (TypeScript: \`@modelcontextprotocol/sdk\`, \`McpServer\` + \`StdioServerTransport\`; Python: \`mcp\`). Give each tool a name, a description written for a model, and a zod/JSON schema of its input. Log to stderr only: stdout carries the protocol.
2. Build it and check it starts: \`node build/index.js\` must wait on stdin without printing to stdout.
3. Register it, either for this workspace in \`.roo/mcp.json\`:
   \`{"mcpServers": {"weather": {"command": "node", "args": ["/abs/path/build/index.js"], "env": {"API_KEY": "\${env:WEATHER_KEY}"}}}}\`
   (the user must approve a workspace MCP file once before its servers start), or for every workspace in the user's settings under \`agent.mcpServers\` (same shape).
4. HTTP servers use \`{"type": "streamable-http", "url": "https://..."}\` instead of command/args.
5. Its tools then appear as \`mcp--<server>--<tool>\`. Never put secrets in the file: use \${env:VAR}.`,
  create_mode: `# Creating a custom mode

Modes live in \`.roomodes\` at the workspace root (this workspace only) or in \`custom_modes.yaml\` in the user's agent-lsp config directory (all workspaces). YAML or JSON:

\`\`\`yaml
customModes:
  - slug: docs-writer            # letters, digits, dashes
    name: Docs Writer
    roleDefinition: You are a technical writer who ...
    whenToUse: Use this mode to write or edit documentation.
    description: Write documentation
    customInstructions: Keep pages short; link to the code.
    groups:
      - read
      - [edit, { fileRegex: "\\\\.md$", description: "Markdown files only" }]
      - command                  # groups: read, edit, command, browser, mcp, modes
\`\`\`

A workspace mode overrides a global one with the same slug, which overrides a built-in. The file is re-read when it changes. Editing .roomodes needs the user's approval.`,
} as const

export const fetchInstructions = defineTool({
  name: "fetch_instructions",
  group: "always",
  params: z.object({
    task: z.enum(["create_mcp_server", "create_mode"]).describe("Which how-to to fetch"),
  }),
  description:
    "Fetch detailed instructions for a task: create_mcp_server (write and register an MCP server) or create_mode (define a custom mode).",
  available: () => true,
  async prepare({ task }) {
    return { result: textResult(INSTRUCTIONS[task], `Instructions: ${task}`) }
  },
})
