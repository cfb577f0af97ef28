import type { AgentContext } from "@agentclientprotocol/sdk"
import { describe, expect, it } from "vitest"
import { acpSignInPage } from "../../../../server/src/fronts/acp/sign-in-page"

const request = { server: "remote", url: "http://127.0.0.1:9/authorize?x=1", timeoutSeconds: 600 }

/** An ACP client stand-in answering elicitation/create with `action` (or failing), recording what it was sent. */
function client(answer: { action: string } | Error) {
  const requests: { method: string; params: any }[] = []
  const context = {
    request: async (method: string, params: unknown) => {
      requests.push({ method, params })
      if (answer instanceof Error) throw answer
      return answer
    },
  } as unknown as AgentContext
  return { context, requests }
}

function session() {
  const sent: any[] = []
  return { sent, session: { id: "s1", send: (update: unknown) => void sent.push(update) } }
}

describe("a remote MCP server's sign-in page over ACP", () => {
  it("is a URL elicitation in the active session where the client declared elicitation.url", async () => {
    const { context, requests } = client({ action: "accept" })
    const { session: s, sent } = session()
    const open = acpSignInPage(
      context,
      true,
      () => s,
      () => {},
    )

    expect(await open(request, new AbortController().signal)).toBe("shown")
    expect(requests).toEqual([
      {
        method: "elicitation/create",
        params: expect.objectContaining({ sessionId: "s1", mode: "url", url: request.url, elicitationId: expect.any(String) }),
      },
    ])
    expect(requests[0]!.params.message).toContain('MCP server "remote" needs you to sign in')
    expect(sent).toEqual([])
  })

  it("ends the sign-in when the user declines or cancels the elicitation", async () => {
    for (const action of ["decline", "cancel"]) {
      const { context } = client({ action })
      const open = acpSignInPage(
        context,
        true,
        () => session().session,
        () => {},
      )
      expect(await open(request, new AbortController().signal)).toBe("declined")
    }
  })

  it("is the agent's message in the session where the client declared no URL elicitation, or failed to ask", async () => {
    for (const [declared, answer] of [
      [false, { action: "accept" }],
      [true, new Error("Method not found")],
    ] as const) {
      const { context, requests } = client(answer)
      const { session: s, sent } = session()
      const open = acpSignInPage(
        context,
        declared,
        () => s,
        () => {},
      )

      expect(await open(request, new AbortController().signal)).toBe("shown")
      expect(requests).toHaveLength(declared ? 1 : 0)
      expect(sent).toEqual([
        { sessionUpdate: "agent_message_chunk", content: { type: "text", text: expect.stringContaining(request.url) } },
      ])
    }
  })

  it("goes to stderr (the sink) before any session exists", async () => {
    const lines: string[] = []
    const open = acpSignInPage(
      client({ action: "accept" }).context,
      true,
      () => undefined,
      (_level, line) => void lines.push(line),
    )

    expect(await open(request, new AbortController().signal)).toBe("shown")
    expect(lines).toEqual([expect.stringContaining(request.url)])
  })
})
