import { fileURLToPath } from "node:url"
import { z } from "zod"
import { defineTool, errorResult, type ToolResult } from "./tool"
import type { AvailabilityContext, ToolContext } from "./context"
import {
  findBrowserExecutable,
  parseCoordinate,
  parseSize,
  UrlRefusedError,
  type BrowserSession,
  type BrowserSource,
  type BrowserStep,
  type Size,
} from "../browser"
import { guardPath } from "../workspace/guard"
import { commandEnv } from "../terminal/env"
import { hidingOf, sandboxStatus } from "../sandbox"
import { browserSandbox } from "../sandbox/browser-sandbox"
import { formatStep } from "./browser-step-text"
import { askerFor } from "./command-network"

export { INSTALL_HINT } from "../browser"

const ACTIONS = ["launch", "click", "hover", "type", "press", "scroll_down", "scroll_up", "resize", "close"] as const
type Action = (typeof ACTIONS)[number]

/** Which param each action needs, and how the model should write it (validation messages quote this). */
const NEEDS: Partial<Record<Action, { param: "url" | "coordinate" | "text" | "size"; hint: string }>> = {
  launch: { param: "url", hint: 'a full URL, e.g. "http://localhost:3000"' },
  click: { param: "coordinate", hint: 'viewport pixels "x,y", e.g. "450,300"' },
  hover: { param: "coordinate", hint: 'viewport pixels "x,y", e.g. "450,300"' },
  type: { param: "text", hint: "the text to type into the focused element" },
  press: { param: "text", hint: 'a key or chord, e.g. "Enter", "Tab", "Control+A"' },
  resize: { param: "size", hint: 'the new viewport "WxH", e.g. "1280x800"' },
}

const params = z
  .object({
    action: z.enum(ACTIONS).describe("What to do; launch first, close when done"),
    url: z.string().optional().describe("launch: the URL to open (http, https, or file:// inside the workspace)"),
    coordinate: z.string().optional().describe('click, hover: "x,y" in viewport pixels, read off the last screenshot'),
    text: z.string().optional().describe('type: text to type into the focused element; press: a key such as "Enter"'),
    size: z.string().optional().describe('resize: the new viewport size "WxH"'),
  })
  .superRefine((value, issues) => {
    const need = NEEDS[value.action]
    if (!need) return
    const given = value[need.param]
    if (given === undefined || (need.param !== "text" && given.trim() === "") || (need.param === "text" && given === ""))
      issues.addIssue({ code: "custom", path: [need.param], message: `action "${value.action}" needs ${need.param}: ${need.hint}` })
    else if (need.param === "coordinate" && !parseCoordinate(given))
      issues.addIssue({ code: "custom", path: ["coordinate"], message: `"${given}" is not a coordinate; give ${need.hint}` })
    else if (need.param === "size" && !parseSize(given))
      issues.addIssue({ code: "custom", path: ["size"], message: `"${given}" is not a size; give ${need.hint}, each side 100 to 4096` })
  })

type Params = z.infer<typeof params>

// What each action takes is said once, in the schema's property descriptions.
const description = `Drive a headless Chromium to check a web page. Each action returns \
a screenshot of the viewport, the console messages logged since the previous action, page errors and the current URL. \
Aim clicks at the centre of the element in the last screenshot; click a field before "type". "scroll_down"/"scroll_up" move \
one viewport height. One browser per task, kept open between calls (other tools work \
meanwhile); "close" it when done. Loopback URLs (http://localhost:PORT) work; file:// only inside the workspace.`

/** True when a browser can be had: an executable found (setting or PATH) or a remote browser configured. */
export function browserConfigured(settings: AvailabilityContext["settings"]): boolean {
  return Boolean(settings.browser.remoteUrl) || findBrowserExecutable(settings.browser.executablePath).ok
}

export const browserAction = defineTool({
  name: "browser_action",
  group: "browser",
  params,
  description,
  available: (ctx) => ctx.hasBrowser,
  async prepare(input, ctx) {
    if (input.action === "close") return { preview: noApproval("Close the browser"), run: () => close(ctx) }
    if (input.action !== "launch") {
      const session = ctx.browsers.get(ctx.taskId)
      const hint = `Call browser_action with action "launch" and a url first, then "${input.action}".`
      if (!session) return { result: errorResult(`No browser is open in this task. ${hint}`) }
      return { preview: noApproval(`Browser: ${input.action}`), run: () => act(session, input, ctx) }
    }
    const target = checkLaunchUrl(input.url!, ctx)
    if (!target.ok) return { result: errorResult(target.message) }
    const source = browserSource(ctx)
    if (!source.ok) return { result: errorResult(source.message) }
    const value = source.value
    // Like a command: with agent.sandbox.mode "required" the policy fails closed when the sandbox cannot start.
    const sandbox = value.kind !== "remote" && ctx.settings.sandbox.mode === "required" ? { sandbox: sandboxStatus() } : {}
    return {
      preview: {
        subject: { kind: "browser", url: target.url, ...sandbox },
        title: `Open ${target.url} in a browser`,
        detail: `${whereText(value)}, for this task. Screenshots and console messages of the page go to the model. ${reachText(value)}`,
      },
      run: () => launch(target.url, value, ctx),
    }
  },
})

function whereText(source: BrowserSource): string {
  if (source.kind === "remote") return `In the browser at ${source.url}`
  if (source.kind === "sandboxed") return `In headless ${source.executablePath}, inside the OS sandbox`
  return `In headless ${source.executablePath}, outside the OS sandbox`
}

function reachText(source: BrowserSource): string {
  const files = "file:// URLs inside the workspace that are not .rooignore'd (other file:// URLs are blocked)"
  if (source.kind !== "sandboxed") return `The page may load further pages and resources: http:// and https:// URLs anywhere, and ${files}.`
  return (
    `The page may load ${files}, and reach this URL's host and port, hosts in agent.sandbox.network.allowedHosts, ` +
    "and other hosts only when you allow them (you are asked)."
  )
}

function noApproval(title: string) {
  return { subject: { kind: "none" as const }, title, detail: "" }
}

async function launch(url: string, source: BrowserSource, ctx: ToolContext): Promise<ToolResult> {
  let session: BrowserSession
  try {
    session = await ctx.browsers.open(
      ctx.taskId,
      { source, viewport: viewportOf(ctx), checkUrl: (u) => fileUrlRefusal(u, ctx) },
      ctx.signal,
    )
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    return errorResult(
      `The browser could not be started: ${why}\nCheck agent.browser.executablePath / agent.browser.remoteUrl, or continue without the browser.`,
    )
  }
  // The user approved opening this URL (or auto-approves launches): its origin is reachable from the sandbox.
  session.allowOrigin(url)
  return stepResult("launch", () => session.navigate(url), ctx)
}

async function act(session: BrowserSession, input: Params, ctx: ToolContext): Promise<ToolResult> {
  const run = (): Promise<BrowserStep> => {
    switch (input.action) {
      case "click":
      case "hover": {
        const at = parseCoordinate(input.coordinate!)!
        return input.action === "click" ? session.click(at) : session.hover(at)
      }
      case "type":
        return session.type(input.text!)
      case "press":
        return session.press(input.text!)
      case "scroll_down":
        return session.scroll(1)
      case "scroll_up":
        return session.scroll(-1)
      case "resize":
        return session.resize(parseSize(input.size!)!)
      default:
        throw new Error(`unexpected action ${input.action}`)
    }
  }
  return stepResult(input.action, run, ctx)
}

async function stepResult(action: Action, run: () => Promise<BrowserStep>, ctx: ToolContext): Promise<ToolResult> {
  try {
    const step = await run()
    const text = formatStep(step)
    return {
      isError: false,
      content: [
        { type: "text", text },
        { type: "image", mediaType: "image/png", base64: step.png.toString("base64") },
      ],
      summary: `${action}: ${step.url} (screenshot taken, ${step.viewport.width}x${step.viewport.height})`,
    }
  } catch (error) {
    if (error instanceof UrlRefusedError) return errorResult(error.message)
    const why = error instanceof Error ? error.message.split("\n", 1)[0] : String(error)
    if (ctx.signal.aborted || !ctx.browsers.get(ctx.taskId)) return errorResult(`The browser was closed during "${action}": ${why}`)
    return errorResult(`browser_action "${action}" failed: ${why}. Look at the last screenshot and try another coordinate, key or action.`)
  }
}

async function close(ctx: ToolContext): Promise<ToolResult> {
  const had = ctx.browsers.get(ctx.taskId) !== undefined
  await ctx.browsers.close(ctx.taskId)
  const text = had ? "The browser is closed. You can use the other tools again." : "No browser was open; nothing to close."
  return { isError: false, content: [{ type: "text", text }], summary: had ? "Browser closed" : "No browser to close" }
}

function viewportOf(ctx: ToolContext): Size {
  return parseSize(ctx.settings.browser.viewport) ?? { width: 900, height: 600 }
}

function browserSource(ctx: ToolContext): { ok: true; value: BrowserSource } | { ok: false; message: string } {
  const remote = ctx.settings.browser.remoteUrl
  if (remote) return { ok: true, value: { kind: "remote", url: remote } }
  const found = findBrowserExecutable(ctx.settings.browser.executablePath)
  if (!found.ok) return found
  // The browser gets the server's environment minus API keys, like every program the agent starts.
  const base = { executablePath: found.path, env: commandEnv() }
  // Outside the sandbox only when the user turned it off, or when it is unavailable and the user approved
  // this launch anyway (the policy asks then: approval/policy.ts).
  if (ctx.settings.sandbox.mode !== "required" || !sandboxStatus().available) return { ok: true, value: { kind: "launch", ...base } }
  const jail = () =>
    browserSandbox({
      workspaceFolders: ctx.workspaceFolders,
      allowedHosts: ctx.settings.sandbox.network.allowedHosts,
      ask: askerFor(ctx, {
        tool: "browser_action",
        detail: (host, port) =>
          `The page in the browser (running in the OS sandbox) wants to connect to ${host} on port ${port}. ` +
          "It is not the host of a URL you approved opening, nor in agent.sandbox.network.allowedHosts.",
        onceLabel: "Allow while this browser is open",
      }),
      ...hidingOf(ctx.settings),
    })
  return { ok: true, value: { kind: "sandboxed", ...base, jail } }
}

type CheckedUrl = { ok: true; url: string } | { ok: false; message: string }

function checkLaunchUrl(given: string, ctx: ToolContext): CheckedUrl {
  const text = given.trim()
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return {
      ok: false,
      message: `"${text}" is not a URL. Give a full URL with its scheme, e.g. "http://localhost:3000" or "https://example.com".`,
    }
  }
  if (!["http:", "https:", "file:"].includes(url.protocol) && url.href !== "about:blank") {
    return {
      ok: false,
      message: `"${text}" has scheme ${url.protocol} (did you mean http://${text}?). browser_action opens http://, https:// and file:// URLs.`,
    }
  }
  const refusal = fileUrlRefusal(url.href, ctx)
  return refusal ? { ok: false, message: refusal } : { ok: true, url: url.href }
}

/** file:// is allowed only for a path inside the workspace (symlinks resolved, .rooignore honoured). */
function fileUrlRefusal(href: string, ctx: ToolContext): string | undefined {
  if (!href.startsWith("file:")) return undefined
  let path: string
  try {
    path = fileURLToPath(href)
  } catch {
    return `"${href}" is not a local file URL. Use file:// with a path inside the workspace.`
  }
  const guarded = guardPath({ workspaceFolders: ctx.workspaceFolders, settings: { files: { readOutsideWorkspace: false } } }, path, "read")
  if (guarded.ok) return undefined
  return `The browser may not open ${href}: ${guarded.message} Serve the page over http://localhost, or open a file inside the workspace.`
}
