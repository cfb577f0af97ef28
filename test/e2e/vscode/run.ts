/**
 * `npm run test:vscode`: the VS Code extension as a user runs it. Packs the .vsix, installs it into a real
 * code-server (from npm, cached in .cache/code-server), opens a temp workspace in Debian's Chromium driven
 * by playwright-core, and runs the scenarios (scenarios/*.ts) one after another in that workbench against
 * the loopback fake Messages API: an approved edit, the lsp tool, a rename across files, the review. Not
 * part of `npm test` (the first run installs ~600 MB). Prints `vscode e2e: N passed, N failed` and exits
 * non-zero on any failure.
 *
 *   npm run test:vscode                         # the checks; screenshots go to .cache/vscode-e2e/
 *   npm run test:vscode -- --only rename        # one scenario (by name) after the start checks
 *   npm run test:vscode -- --only review,review-view   # several, comma-separated
 *   npm run test:vscode -- --reuse-vsix         # skip packing: the .vsix of the last run
 *   npm run test:vscode -- --update-screenshots # also writes docs/screenshots/vscode-*.png
 */
import { execFileSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { chromium, type Browser } from "playwright-core"
import { startFakeAnthropic, type FakeAnthropic } from "../../support/fake-anthropic"
import { tempWorkspace, type TempWorkspace } from "../../support/temp-workspace"
import { ensureCodeServer, installExtension, startCodeServer, type CodeServer } from "./code-server"
import type { ScenarioContext } from "./scenario"
import { scenarios, userSettings } from "./scenarios"
import { startWorkbench } from "./start-workbench"
import { recordNotifications, runCommand, statusBarTexts, tabTitles } from "./workbench"

const root = resolve(import.meta.dirname, "..", "..", "..")
const cache = join(root, ".cache")
const shots = join(cache, "vscode-e2e")
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
/** The run after the install is cut off after this (each step has its own, shorter bound). */
const RUN_LIMIT_MS = 30 * 60_000

const results: { name: string; ok: boolean; detail?: string }[] = []
const started = Date.now()
const log = (line: string) => console.log(`vscode e2e: [${Math.round((Date.now() - started) / 1000)} s] ${line}`)

let fake: FakeAnthropic | undefined
let ws: TempWorkspace | undefined
let home: string | undefined
let server: CodeServer | undefined
let browser: Browser | undefined

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (or set CHROMIUM_PATH)`)
  const entry = ensureCodeServer(join(cache, "code-server"), log)
  // The bound counts from here: the one-time install has bounds of its own (code-server.ts).
  setTimeout(() => {
    results.push({ name: `the run ended within ${RUN_LIMIT_MS / 60_000} minutes of the install`, ok: false })
    void finish(undefined)
  }, RUN_LIMIT_MS).unref()
  const vsix = join(root, "clients", "vscode", "agent-lsp.vsix")
  if (process.argv.includes("--reuse-vsix") && existsSync(vsix)) log("reusing the packed extension (--reuse-vsix)")
  else {
    log("packing the extension (npm run package:vscode)")
    execFileSync("npm", ["run", "--silent", "package:vscode"], { cwd: root, stdio: ["ignore", "ignore", "inherit"], timeout: 10 * 60_000 })
  }

  const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined
  const chosen = scenarios.filter((s) => !only || only.split(",").includes(s.name.replace(/ /g, "-")))
  if (chosen.length === 0)
    throw new Error(`no scenario named ${only}; there are: ${scenarios.map((s) => s.name.replace(/ /g, "-")).join(", ")}`)
  fake = await startFakeAnthropic([])
  ws = await tempWorkspace(Object.assign({}, ...chosen.map((s) => s.files)))
  home = mkdtempSync(join(tmpdir(), "agent-lsp-vscode-e2e-"))
  const dirs = { userData: join(home, "user-data"), extensions: join(home, "extensions") }
  mkdirSync(join(dirs.userData, "User"), { recursive: true })
  writeFileSync(join(dirs.userData, "User", "settings.json"), JSON.stringify(userSettings(fake.url), null, 2))

  const installed = installExtension(entry, vsix, dirs)
  results.push({
    name: "the .vsix installs with --install-extension",
    ok: /successfully installed/i.test(installed),
    detail: installed.trim(),
  })

  server = await startCodeServer(entry, ws.root, dirs, {
    ...process.env,
    HOME: home,
    XDG_STATE_HOME: join(home, "state"),
    XDG_CONFIG_HOME: join(home, "config"),
    XDG_DATA_HOME: join(home, "data"),
    ANTHROPIC_API_KEY: "sk-ant-vscode-e2e-dummy-key",
  })
  log(`code-server ${server.url} (pid ${server.pid})`)
  // Our signal handlers close the browser in cleanup(), after code-server, and report; not Playwright's.
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--no-sandbox"],
    timeout: 30_000,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  })
  const page = await browser.newPage({ viewport: { width: 1360, height: 820 } })
  page.setDefaultTimeout(15_000)
  const notifications = await recordNotifications(page)
  const check = (name: string, ok: boolean, detail?: string) => void results.push({ name, ok, detail })
  const context: ScenarioContext = { page, url: server.url, fake, ws, notifications, check, shot: (name) => screenshot(page, name), log }
  await startWorkbench(context)
  for (const s of chosen) {
    log(`scenario: ${s.name}`)
    fake.dropUnused()
    fake.push(...s.replies)
    const before = { requests: fake.requests.length, results: results.length }
    try {
      await s.run(context)
    } catch (error) {
      check(`${s.name}: the scenario ran to its end`, false, error instanceof Error ? error.message : String(error))
      await screenshot(page, `${s.name.replace(/ /g, "-")}-failure`).catch(() => undefined)
      log(
        `at the failure: ${fake.requests.length - before.requests} model requests; status bar: ${(await statusBarTexts(page).catch(() => [])).join(" | ")}`,
      )
      log(`tabs: ${(await tabTitles(page).catch(() => [])).join(" | ")}`)
      // Whatever the failure left open (a dialog, a pick) must not take the next scenario's input.
      for (let i = 0; i < 3; i++) await page.keyboard.press("Escape").catch(() => undefined)
      await runCommand(page, "Agent: Cancel Task").catch(() => undefined)
    }
    log(`scenario ${s.name}: ${results.slice(before.results).filter((r) => !r.ok).length} failed`)
  }
  const all = notifications.filter((n) => n.severity === "warning" || n.severity === "error")
  check("no warning or error notification during the whole run", all.length === 0, all.map((n) => `${n.severity}: ${n.message}`).join("\n"))
}

async function screenshot(page: import("playwright-core").Page, name: string): Promise<void> {
  mkdirSync(shots, { recursive: true })
  const file = join(shots, `vscode-${name}.png`)
  await page.screenshot({ path: file })
  if (process.argv.includes("--update-screenshots") && !name.endsWith("failure")) {
    copyFileSync(file, join(root, "docs", "screenshots", `vscode-${name}.png`))
    log(`wrote docs/screenshots/vscode-${name}.png`)
  }
}

/** Closes everything this run started, each step bounded, whatever happened before. */
async function cleanup(): Promise<void> {
  await Promise.race([browser?.close(), new Promise((r) => setTimeout(r, 10_000))]).catch(() => undefined)
  await server?.stop().catch(() => undefined)
  await fake?.close().catch(() => undefined)
  await ws?.cleanup().catch(() => undefined)
  if (home) rmSync(home, { recursive: true, force: true })
}

function report(): number {
  for (const r of results) {
    console.log(`${r.ok ? "  ok  " : "  FAIL"} ${r.name}`)
    if (!r.ok && r.detail) console.log(r.detail.replace(/^/gm, "        "))
  }
  const failed = results.filter((r) => !r.ok).length
  if (failed && server)
    console.log(
      `code-server's output (last 40 lines):\n${server
        .log()
        .split("\n")
        .slice(-40)
        .map((line) => (line.length > 300 ? `${line.slice(0, 300)}…` : line))
        .join("\n")}`,
    )
  console.log(`vscode e2e: ${results.length - failed} passed, ${failed} failed (${Math.round((Date.now() - started) / 1000)} s)`)
  return failed || results.length === 0 ? 1 : 0
}

let finishing = false
async function finish(code: number | undefined): Promise<never> {
  if (finishing) process.exit(1)
  finishing = true
  await cleanup()
  process.exit(code ?? report())
}

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const)
  process.on(signal, () => {
    results.push({ name: "the run was not interrupted", ok: false, detail: signal })
    void finish(undefined)
  })

main().then(
  () => finish(undefined),
  (error) => {
    results.push({ name: "set-up", ok: false, detail: error instanceof Error ? error.message : String(error) })
    return finish(undefined)
  },
)
