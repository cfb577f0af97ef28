import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { runCliToEnd } from "../support/cli-process"
import { hookHome as configHome } from "../support/hook-scripts"
import type { FakeReply } from "../support/fake-anthropic"
import { scopedFake, scopedWorkspace } from "../support/scoped"

/** The three worked examples of docs/hooks.md, run for real through `agent-lsp run` (the built server). */

const readInput = `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const i=JSON.parse(s);console.log(i.tool_input.path??"")})'`

const call = (id: string, name: string, input: unknown): FakeReply => ({ toolCalls: [{ id, name, input }] })
const lastToolResult = (body: any): string => JSON.stringify(body.messages.at(-1)?.content ?? "")

describe("hooks: the worked examples", () => {
  it("formats every edited file (PostToolUse) and refuses writes under migrations/ (PreToolUse, exit 2)", async () => {
    const ws = await scopedWorkspace()
    // The scripts live in the user's config folder (not in the workspace): a cloned repository cannot choose them.
    const guard = `#!/bin/sh\npath=$(${readInput})\ncase "$path" in migrations/*) echo "Writes under migrations/ are refused: add a new migration with the team's tool instead." >&2; exit 2;; esac\n`
    const format = `#!/bin/sh\npath=$(${readInput})\nsed -i 's/[[:space:]]*$//' "$CLAUDE_PROJECT_DIR/$path"\n`
    const edits = "write_to_file|apply_diff|edit|insert_content"
    const home = configHome(
      {
        hooks: {
          PreToolUse: [{ matcher: edits, hooks: [{ type: "command", command: "$XDG_CONFIG_HOME/guard.sh" }] }],
          PostToolUse: [{ matcher: edits, hooks: [{ type: "command", command: "$XDG_CONFIG_HOME/format.sh" }] }],
        },
      },
      { "guard.sh": guard, "format.sh": format },
    )
    const api = await scopedFake([
      call("toolu_m", "write_to_file", { path: "migrations/001.sql", content: "drop table users;\n" }),
      call("toolu_s", "write_to_file", { path: "src/a.ts", content: "const a = 1;   \n" }),
      call("toolu_done", "attempt_completion", { result: "done" }),
    ])
    const { code, stderr } = await runCliToEnd(["run", "--auto-approve", "write", "edit"], {
      cwd: ws.root,
      apiUrl: api.url,
      env: { XDG_CONFIG_HOME: home },
    })
    expect(code, stderr).toBe(0)
    expect(() => readFileSync(ws.path("migrations/001.sql"))).toThrow()
    expect(lastToolResult(api.requests[1]!.body)).toContain("Writes under migrations/ are refused")
    expect(readFileSync(ws.path("src/a.ts"), "utf8")).toBe("const a = 1;\n")
  })

  it("keeps the agent working until the tests pass (Stop, exit 2)", async () => {
    const ws = await scopedWorkspace()
    // A tiny stand-in for `npm test`: passes once done.txt exists.
    const home = configHome(
      {
        hooks: {
          Stop: [
            { hooks: [{ type: "command", command: "test -f done.txt || { echo 'npm test fails: done.txt is missing' >&2; exit 2; }" }] },
          ],
        },
      },
      {},
    )
    const api = await scopedFake([
      call("toolu_c1", "attempt_completion", { result: "finished?" }),
      call("toolu_w", "write_to_file", { path: "done.txt", content: "ok\n" }),
      call("toolu_c2", "attempt_completion", { result: "finished" }),
    ])
    const { code, stdout, stderr } = await runCliToEnd(["run", "--auto-approve", "write", "make the tests pass"], {
      cwd: ws.root,
      apiUrl: api.url,
      env: { XDG_CONFIG_HOME: home },
    })
    expect(code, stderr).toBe(0)
    expect(stdout).toBe("finished\n")
    expect(api.requests).toHaveLength(3)
    expect(lastToolResult(api.requests[1]!.body)).toContain("npm test fails: done.txt is missing")
  })
})

describe("agent-lsp run --permission-mode", () => {
  it("refuses what would ask at once in dontAsk (the default without a terminal) and tells the model why", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      call("toolu_x", "execute_command", { command: "npm test" }),
      call("toolu_done", "attempt_completion", { result: "ok" }),
    ])
    const { code } = await runCliToEnd(["run", "run the tests"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(0)
    expect(lastToolResult(api.requests[1]!.body)).toContain("dontAsk permission mode, where nobody is asked")
    // Control: the same call in bypassPermissions runs (npm test fails here, but it ran: an exit code, not a refusal).
    const api2 = await scopedFake([
      call("toolu_x", "execute_command", { command: "npm test" }),
      call("toolu_done", "attempt_completion", { result: "ok" }),
    ])
    const control = await runCliToEnd(["run", "--permission-mode", "bypassPermissions", "run the tests"], {
      cwd: ws.root,
      apiUrl: api2.url,
    })
    expect(control.code).toBe(0)
    expect(lastToolResult(api2.requests[1]!.body)).toMatch(/Command (finished|exited|failed)[^"]*exit code/)
  })

  it("refuses edits in plan mode and offers exit_plan_mode", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      call("toolu_w", "write_to_file", { path: "a.txt", content: "x" }),
      call("toolu_done", "attempt_completion", { result: "the plan" }),
    ])
    const { code } = await runCliToEnd(["run", "--permission-mode", "plan", "--auto-approve", "all", "plan it"], {
      cwd: ws.root,
      apiUrl: api.url,
    })
    expect(code).toBe(0)
    expect(() => readFileSync(ws.path("a.txt"))).toThrow()
    expect(api.requests[0]!.body.tools.map((t: any) => t.name)).toContain("exit_plan_mode")
    expect(api.requests[0]!.body.system.map((b: any) => b.text).join("")).toContain("PLAN MODE")
    expect(lastToolResult(api.requests[1]!.body)).toContain("plan mode")
    // Control: the same call with the same flags outside plan mode is written.
    const api2 = await scopedFake([
      call("toolu_w", "write_to_file", { path: "a.txt", content: "x" }),
      call("toolu_done", "attempt_completion", { result: "ok" }),
    ])
    const control = await runCliToEnd(["run", "--permission-mode", "default", "--auto-approve", "all", "plan it"], {
      cwd: ws.root,
      apiUrl: api2.url,
    })
    expect(control.code).toBe(0)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("x")
  })

  it("runs edits without asking in acceptEdits, and refuses a bad mode name with usage", async () => {
    const ws = await scopedWorkspace()
    const api = await scopedFake([
      call("toolu_w", "write_to_file", { path: "a.txt", content: "x\n" }),
      call("toolu_done", "attempt_completion", { result: "ok" }),
    ])
    const { code } = await runCliToEnd(["run", "--permission-mode", "acceptEdits", "write"], { cwd: ws.root, apiUrl: api.url })
    expect(code).toBe(0)
    expect(readFileSync(ws.path("a.txt"), "utf8")).toBe("x\n")
    const bad = await runCliToEnd(["run", "--permission-mode", "yolo", "x"], { cwd: ws.root })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('unknown mode "yolo"')
  })
})
