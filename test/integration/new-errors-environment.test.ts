import { mkdir, writeFile } from "node:fs/promises"
import { fileURLToPath } from "node:url"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

const TSLS = fileURLToPath(new URL("../../node_modules/typescript-language-server/lib/cli.mjs", import.meta.url))
const typescriptServer = { typescript: { command: [process.execPath, TSLS, "--stdio"], extensions: [".ts"] } }

const A = "export const total: number = 1\n"
const B = 'import { total } from "./a"\nexport const doubled: number = total * 2\n'
const write = (id: string, path: string, content: string) => ({ toolCalls: [{ id, name: "write_to_file", input: { path, content } }] })
const done = { toolCalls: [{ id: "toolu_done", name: "attempt_completion", input: { result: "done" } }] }
const environmentOf = (body: any): string =>
  body.messages
    .at(-1)
    .content.filter((b: any) => b.type === "text" && b.text.startsWith("<environment>"))
    .map((b: any) => b.text)
    .join("\n")

describe("new errors in the environment details", () => {
  it("tells the model about an error its edit caused in another file, on the next turn, once", async () => {
    const ws = await tempWorkspace()
    onTestFinished(() => ws.cleanup())
    await mkdir(ws.path("src"))
    await writeFile(ws.path("src/a.ts"), A)
    await writeFile(ws.path("src/b.ts"), B)
    await writeFile(ws.path("tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true }, include: ["src"] }))
    const { server, api } = await startSession(
      [
        write("toolu_b", "src/b.ts", `${B}// touched\n`),
        write("toolu_a", "src/a.ts", 'export const total: string = "one"\n'),
        write("toolu_c", "src/c.ts", "export const c = 1\n"),
        done,
      ],
      {
        workspace: ws.root,
        initializationOptions: {
          agent: { autoApprove: { write: true }, diagnostics: { languageServers: typescriptServer, timeoutSeconds: 15 } },
        },
      },
    )
    const { taskId } = await server.request("agent/newTask", { text: "Make total a string." })
    await server.waitForStatus(taskId, "completed", 90_000)

    // Before the edit of a.ts, b.ts was fine: nothing to tell.
    expect(environmentOf(api.requests[1]!.body)).not.toContain("New errors")
    // a.ts's new type breaks b.ts: the edit's own result names only a.ts's problems, the next turn names b.ts's.
    const told = environmentOf(api.requests[2]!.body)
    expect(told).toMatch(/New errors since your last turn \(1\):\nsrc\/b\.ts:2: The left-hand side of an arithmetic operation/)
    // Told once.
    expect(environmentOf(api.requests[3]!.body)).not.toContain("New errors")
  }, 120_000)
})
