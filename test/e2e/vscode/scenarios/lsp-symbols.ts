import { newTask, openTypeScriptFile, type Scenario, type ScenarioContext, taskEnded, toolResultFor } from "../scenario"

/** geo/shapes.ts: an interface and a class implementing it (line numbers below are 1-based, as the tool shows). */
const SHAPES = [
  "/** A closed figure that knows its own area. */",
  "export interface Shape {", // 2: Shape at 2:18
  "  area(): number",
  "}",
  "",
  "export class Square implements Shape {", // 6: Square at 6:14
  "  constructor(private readonly side: number) {}",
  "",
  "  area(): number {",
  "    return this.side * this.side",
  "  }",
  "}",
]

/** geo/report.ts: a small call chain, report → label and totalArea; average → totalArea. */
const REPORT = [
  'import type { Shape } from "./shapes"',
  "",
  "/** Sums the areas of the given shapes. */",
  "export function totalArea(shapes: Shape[]): number {", // 4: totalArea at 4:17
  "  return shapes.reduce((sum, shape) => sum + shape.area(), 0)",
  "}",
  "",
  "export function report(shapes: Shape[]): string {", // 8: report at 8:17
  "  return label(totalArea(shapes))", // 9: label at 9:10, totalArea at 9:16
  "}",
  "",
  "export function average(shapes: Shape[]): number {",
  "  return totalArea(shapes) / shapes.length", // 13: totalArea at 13:10
  "}",
  "",
  "function label(total: number): string {", // 16: label at 16:10
  "  return `total ${total}`",
  "}",
]

const files = {
  "geo/tsconfig.json": JSON.stringify({ compilerOptions: { strict: true, module: "commonjs", target: "es2020" }, include: ["*.ts"] }),
  "geo/shapes.ts": `${SHAPES.join("\n")}\n`,
  "geo/report.ts": `${REPORT.join("\n")}\n`,
}

/** `path:line:character  source line`, as the lsp tool prints a location (the line read from the fixture). */
const at = (path: "geo/shapes.ts" | "geo/report.ts", line: number, character: number) =>
  `${path}:${line}:${character}  ${(path === "geo/shapes.ts" ? SHAPES : REPORT)[line - 1].trim()}`

/**
 * The tool result the model must receive for each call, exactly: what VS Code's TypeScript extension answers
 * for the fixture above, turned into the lsp tool's text (server/src/tools/lsp.ts, lsp-format.ts).
 */
const EXPECTED = {
  // TypeScript's quick info as a code block, then the JSDoc as a second markdown part.
  hover: "```typescript\nfunction totalArea(shapes: Shape[]): number\n```\n\nSums the areas of the given shapes.",
  // The outline: kinds in LSP's numbering (VS Code's are 0-based), ranges of each declaration (without its JSDoc).
  documentSymbol: [
    "geo/shapes.ts: 6 symbols",
    "interface Shape  2-4",
    "  method area  3",
    "class Square  6-12",
    "  constructor constructor  7",
    "  property side  7",
    "  method area  9-11",
  ].join("\n"),
  // TypeScript's navto gives the declaration's span (from `export`), not just its name; VS Code's TypeScript
  // extension names functions and methods with "()" in workspace symbols.
  workspaceSymbol: ['1 symbols matching "totalArea"', "function totalArea()  geo/report.ts:4:1"].join("\n"),
  goToImplementation: ["goToImplementation at geo/shapes.ts:2:18: 1 location", at("geo/shapes.ts", 6, 14)].join("\n"),
  // Incoming calls: the call sites inside each caller (fromRanges), not the callers' declarations.
  incomingCalls: ["incomingCalls at geo/report.ts:4:17: 2 locations", at("geo/report.ts", 9, 16), at("geo/report.ts", 13, 10)].join("\n"),
  // Outgoing calls: each called function where it is declared (its name, the item's selectionRange).
  outgoingCalls: ["outgoingCalls at geo/report.ts:8:17: 2 locations", at("geo/report.ts", 4, 17), at("geo/report.ts", 16, 10)].join("\n"),
} as const

type Operation = keyof typeof EXPECTED

/** Each call the fake model makes, with the params the model would give (1-based, like read_file). */
const CALLS: Record<Operation, Record<string, unknown>> = {
  hover: { filePath: "geo/report.ts", line: 9, character: 16 },
  documentSymbol: { filePath: "geo/shapes.ts" },
  workspaceSymbol: { query: "totalArea" },
  goToImplementation: { filePath: "geo/shapes.ts", line: 2, character: 18 },
  incomingCalls: { filePath: "geo/report.ts", line: 4, character: 17 },
  outgoingCalls: { filePath: "geo/report.ts", line: 8, character: 17 },
}

const OPERATIONS = Object.keys(CALLS) as Operation[]

/**
 * The lsp tool's other six operations, answered by VS Code's own TypeScript extension through
 * agent/languageFeature (executeHoverProvider, executeDocumentSymbolProvider, executeWorkspaceSymbolProvider,
 * executeImplementationProvider, prepareCallHierarchy + provideIncomingCalls / provideOutgoingCalls):
 * agent.languageServers is empty, so no other server can answer.
 */
export const lspSymbols: Scenario = {
  name: "lsp symbols",
  files,
  replies: [
    ...OPERATIONS.map((operation) => ({
      text: `lsp ${operation}`,
      toolCalls: [{ id: `toolu_lsp_${operation}`, name: "lsp", input: { operation, ...CALLS[operation] } }],
    })),
    { toolCalls: [{ name: "attempt_completion", input: { result: "totalArea sums the shapes' areas; report and average call it." } }] },
  ],
  run,
}

async function run({ page, fake, check, log }: ScenarioContext): Promise<void> {
  const from = fake.requests.length
  await openTypeScriptFile(page, "geo/report.ts", log)
  log("lsp symbols: a task whose model calls the lsp tool's six other operations")
  await newTask(page, "Explain how the total area is computed and who uses it")
  const done = await taskEnded(page, fake, from, OPERATIONS.length + 1, 90_000)
  check("lsp symbols: the task completes without any approval", done.startsWith("agent: completed"), done)
  const requests = fake.requests.slice(from)
  for (const operation of OPERATIONS) {
    const result = toolResultFor(requests, `toolu_lsp_${operation}`) ?? "(no tool result)"
    check(
      `lsp symbols: ${operation}'s result is exactly what VS Code's TypeScript extension answers for the fixture`,
      result === EXPECTED[operation],
      `got:\n${result}\nexpected:\n${EXPECTED[operation]}`,
    )
  }
}
