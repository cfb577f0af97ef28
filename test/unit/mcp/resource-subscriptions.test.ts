import { describe, expect, it, onTestFinished } from "vitest"
import { McpResourceWatch } from "../../../server/src/mcp/resource-watch"
import { useEverythingHub } from "./everything"

/** Polls `read` until it returns something, or gives up after `ms`. */
async function eventually<T>(read: () => T | undefined, ms = 10_000): Promise<T | undefined> {
  const end = Date.now() + ms
  for (;;) {
    const value = read()
    if (value !== undefined || Date.now() > end) return value
    await new Promise((r) => setTimeout(r, 50))
  }
}

describe("MCP resource subscriptions against server-everything", () => {
  const everything = useEverythingHub()
  /** server-everything sends an update for every subscribed resource when its simulated updates start. */
  const triggerUpdates = async () => {
    const first = await everything.hub.callTool("everything", "toggle-subscriber-updates", {})
    // Started already (an earlier test): stop and start again, so the immediate round is sent now.
    if (first.summary.includes("Stopped")) await everything.hub.callTool("everything", "toggle-subscriber-updates", {})
  }
  const read = async (watch: McpResourceWatch, uri: string) => {
    expect((await everything.hub.readResource("everything", uri)).isError).toBe(false)
    await watch.noteRead("everything", uri)
  }
  const updatesSeen = () => {
    const seen: string[] = []
    const stop = everything.hub.onResourceUpdated((_server, uri) => seen.push(uri))
    onTestFinished(stop)
    return seen
  }

  it("subscribes when the task reads a resource a second time, and tells the next turn once when it changes", async () => {
    const watch = new McpResourceWatch(everything.hub)
    onTestFinished(() => watch.dispose())
    const uri = "demo://resource/dynamic/text/6"
    const seen = updatesSeen()

    await read(watch, uri)
    await triggerUpdates()
    await new Promise((r) => setTimeout(r, 500))
    expect(seen).toEqual([])
    expect(watch.takeNotice()).toBeUndefined()

    await read(watch, uri)
    await triggerUpdates()
    await triggerUpdates()
    await eventually(() => (seen.length >= 2 ? true : undefined))
    const notice = watch.takeNotice()
    expect(notice).toContain(`- ${uri} (server "everything")`)
    expect(notice!.match(new RegExp(uri.replace(/[/.]/g, "\\$&"), "g"))).toHaveLength(1)
    expect(watch.takeNotice()).toBeUndefined()
  })

  it("subscribes at the first read of a resource a tool result linked", async () => {
    const watch = new McpResourceWatch(everything.hub)
    onTestFinished(() => watch.dispose())
    const links = await everything.hub.callTool("everything", "get-resource-links", { count: 2 })
    expect(links.resourceLinks).toEqual(["demo://resource/dynamic/blob/1", "demo://resource/dynamic/text/2"])
    watch.noteLinks("everything", links.resourceLinks!)

    await read(watch, "demo://resource/dynamic/text/2")
    await triggerUpdates()

    expect(await eventually(() => watch.takeNotice())).toContain("demo://resource/dynamic/text/2")
  })

  it("drops the notice when the task reads the resource again before its next turn", async () => {
    const watch = new McpResourceWatch(everything.hub)
    onTestFinished(() => watch.dispose())
    const uri = "demo://resource/dynamic/text/8"
    const seen = updatesSeen()
    await read(watch, uri)
    await read(watch, uri)
    await triggerUpdates()
    await eventually(() => (seen.length > 0 ? true : undefined))

    await read(watch, uri)

    expect(watch.takeNotice()).toBeUndefined()
  })

  it("unsubscribes when the task's run ends, so the server stops sending its updates", async () => {
    const watch = new McpResourceWatch(everything.hub)
    const uri = "demo://resource/dynamic/text/4"
    watch.noteLinks("everything", [uri])
    await read(watch, uri)
    const seen = updatesSeen()
    await triggerUpdates()
    expect(await eventually(() => (seen.includes(uri) ? true : undefined))).toBe(true)

    await watch.dispose()
    seen.length = 0
    await triggerUpdates()
    await new Promise((r) => setTimeout(r, 500))

    expect(seen).not.toContain(uri)
  })
})
