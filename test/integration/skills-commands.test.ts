import { describe, expect, it, onTestFinished } from "vitest"
import { startSession } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/** Skills and slash commands through the built server: the prompt, the tools, the expansion, the requests. */

const DEPLOY_BODY = "\n# Deploy\n\n1. Run `npm run build`.\n2. Run `npm run deploy -- --env $ENV`.\n"
const FILES = {
  ".roo/skills/deploy/SKILL.md": `---\nname: deploy\ndescription: Deploy the app to staging or production\n---\n${DEPLOY_BODY}`,
  ".roo/skills-architect/diagram/SKILL.md": "---\nname: diagram\ndescription: Draw architecture diagrams\n---\nUse Mermaid.\n",
  ".roo/commands/review.md":
    "---\ndescription: Review a file\nargument-hint: <path>\n---\nReview the given file for bugs; list them by line.\n",
  "src/app.js": "console.log('app')\n",
}

async function session(replies: Parameters<typeof startSession>[0]) {
  const ws = await tempWorkspace(FILES)
  const home = await tempWorkspace({
    ".roo/commands/standup.md": "---\ndescription: Write my standup\n---\nSummarise yesterday's commits.",
  })
  onTestFinished(async () => {
    await ws.cleanup()
    await home.cleanup()
  })
  return { ws, home, ...(await startSession(replies, { workspace: ws.root, env: { HOME: home.root } })) }
}

const firstUserText = (body: any) => {
  const content = body.messages[0].content
  return typeof content === "string" ? content : content.map((b: any) => b.text ?? "").join("")
}
const toolResult = (body: any, id: string) =>
  body.messages.at(-1).content.find((b: any) => b.type === "tool_result" && b.tool_use_id === id)
const resultText = (r: any) => (typeof r.content === "string" ? r.content : r.content.map((c: any) => c.text).join(""))

describe("skills and slash commands through the built server", () => {
  it("expands a /review task text into the command's body, keeping the argument", async () => {
    const { server, api } = await session([{ toolCalls: [{ name: "attempt_completion", input: { result: "reviewed" } }] }])
    const { taskId } = await server.request("agent/newTask", { text: "/review src/app.js" })
    await server.waitForStatus(taskId, "completed", 20_000)
    expect(firstUserText(api.requests[0]!.body)).toContain(
      "Slash command /review (.roo/commands/review.md):\n\nReview the given file for bugs; list them by line.\n\nArguments: src/app.js",
    )
    const { tasks } = await server.request("agent/listTasks", {})
    expect(tasks.find((t: any) => t.taskId === taskId).title).toBe("/review src/app.js")
  })

  it("lists the mode's skills in the prompt and returns a skill's body through the skill tool", async () => {
    const { server, api } = await session([
      { toolCalls: [{ id: "toolu_skill", name: "skill", input: { skill: "deploy", args: "staging" } }] },
      { toolCalls: [{ id: "toolu_bad", name: "skill", input: { skill: "diagram" } }] },
      { toolCalls: [{ id: "toolu_cmd", name: "run_slash_command", input: { command: "standup" } }] },
      { toolCalls: [{ name: "attempt_completion", input: { result: "deployed" } }] },
    ])
    const { taskId } = await server.request("agent/newTask", { text: "Deploy to staging" })
    await server.waitForStatus(taskId, "completed", 20_000)
    const first = api.requests[0]!.body
    const system = first.system.map((b: any) => b.text).join("")
    expect(system).toContain("AVAILABLE SKILLS")
    expect(system).toContain("- deploy: Deploy the app to staging or production\n  Location: .roo/skills/deploy/SKILL.md")
    expect(system).not.toContain("diagram")
    expect(system).not.toContain("npm run deploy")
    expect(first.tools.map((t: any) => t.name)).toEqual(expect.arrayContaining(["skill", "run_slash_command"]))

    expect(resultText(toolResult(api.requests[1]!.body, "toolu_skill"))).toBe(
      `Skill "deploy" (.roo/skills/deploy/SKILL.md). Follow these instructions:\n${DEPLOY_BODY}\n\nArguments: staging`,
    )
    const bad = toolResult(api.requests[2]!.body, "toolu_bad")
    expect(bad.is_error).toBe(true)
    expect(resultText(bad)).toContain("The skills available in code mode: deploy (Deploy the app to staging or production)")
    expect(resultText(toolResult(api.requests[3]!.body, "toolu_cmd"))).toBe(
      "Slash command /standup (~/.roo/commands/standup.md):\n\nSummarise yesterday's commits.",
    )
  })

  it("answers agent/listSkills per mode and agent/listCommands for completion", async () => {
    const { server, ws } = await session([])
    expect(await server.request("agent/listSkills", { mode: "code" })).toEqual({
      skills: [
        {
          name: "deploy",
          description: "Deploy the app to staging or production",
          path: ws.path(".roo/skills/deploy/SKILL.md"),
          source: "workspace",
        },
      ],
    })
    const architect = await server.request("agent/listSkills", { mode: "architect" })
    expect(architect.skills.map((s: any) => [s.name, s.modes])).toEqual([
      ["deploy", undefined],
      ["diagram", ["architect"]],
    ])
    expect((await server.request("agent/listSkills", {})).skills).toHaveLength(2)
    expect(await server.request("agent/listCommands", {})).toEqual({
      commands: [
        {
          name: "init",
          description: "Study the codebase and write (or improve) AGENTS.md for coding agents",
          argumentHint: "[what to focus on]",
          source: "builtin",
        },
        { name: "review", description: "Review a file", argumentHint: "<path>", source: "workspace" },
        { name: "standup", description: "Write my standup", source: "global" },
      ],
    })
  })
})
