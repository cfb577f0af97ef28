import { newTask, openTypeScriptFile, type Scenario, type ScenarioContext, taskEnded, toolResultFor } from "../scenario"

/** A two-file TypeScript project with a tsconfig, so VS Code's TypeScript server sees both files as one project. */
const files = {
  "nav/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "commonjs", target: "es2020" }, include: ["*.ts"] }),
  "nav/shapes.ts": "export function area(width: number, height: number): number {\n  return width * height\n}\n",
  "nav/main.ts": 'import { area } from "./shapes"\n\nconst total = area(2, 3) + area(4, 5)\nconsole.log(total)\n',
}

/**
 * Where `area` is, 1-based as the lsp tool shows it: its declaration (shapes.ts 1:17), the import
 * (main.ts 1:10) and the two calls (main.ts 3:15 and 3:28). VS Code's own TypeScript extension answers.
 */
const DEFINITION = "nav/shapes.ts:1:17"
const REFERENCES = ["nav/shapes.ts:1:17", "nav/main.ts:1:10", "nav/main.ts:3:15", "nav/main.ts:3:28"]

/**
 * The model navigates with the lsp tool: goToDefinition from a call in main.ts, then findReferences from
 * the declaration. agent.languageServers is empty here, so only the editor (agent/languageFeature,
 * answered through vscode.executeDefinitionProvider / executeReferenceProvider) can answer.
 */
export const lspTool: Scenario = {
  name: "lsp tool",
  files,
  replies: [
    {
      text: "Where is area defined?",
      toolCalls: [
        { id: "toolu_lsp_def", name: "lsp", input: { operation: "goToDefinition", filePath: "nav/main.ts", line: 3, character: 15 } },
      ],
    },
    {
      text: "And who uses it?",
      toolCalls: [
        { id: "toolu_lsp_refs", name: "lsp", input: { operation: "findReferences", filePath: "nav/shapes.ts", line: 1, character: 17 } },
      ],
    },
    { toolCalls: [{ name: "attempt_completion", input: { result: "area is defined in nav/shapes.ts and called twice in nav/main.ts." } }] },
  ],
  run,
}

async function run({ page, fake, check, shot, log }: ScenarioContext): Promise<void> {
  const from = fake.requests.length
  // The user works in the project: a TypeScript file open starts VS Code's TypeScript extension. Until
  // TypeScript has loaded the project, F12 on an imported name lands on the import.
  await openTypeScriptFile(page, "nav/main.ts", log)
  log("lsp: a task whose model calls the lsp tool")
  await newTask(page, "Find where area is defined and every use of it")
  const done = await taskEnded(page, fake, from, 3)
  check("lsp: the task completes without any approval (lsp is a read tool)", done.startsWith("agent: completed"), done)
  const requests = fake.requests.slice(from)
  const definition = toolResultFor(requests, "toolu_lsp_def") ?? "(no tool result)"
  check(
    "lsp: goToDefinition's result names area's declaration, from VS Code's TypeScript extension",
    definition.includes(DEFINITION) && definition.includes("export function area"),
    definition,
  )
  const references = toolResultFor(requests, "toolu_lsp_refs") ?? "(no tool result)"
  const listed: string[] = references.match(/^nav\/\S+?:\d+:\d+/gm) ?? []
  check(
    "lsp: findReferences' result names the declaration, the import and both calls, and nothing else",
    REFERENCES.every((r) => listed.includes(r)) && listed.length === REFERENCES.length,
    references,
  )
  await shot("lsp-tool")
}
