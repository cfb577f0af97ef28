import { createInterface } from "node:readline"
import { readStoredLogin, removeStoredLogin, storedLoginFile, writeStoredLogin, type StoredLogin } from "../../config/stored-login"

/** How long login waits for each answer before giving up (an unattended terminal must not hang forever). */
const ANSWER_TIMEOUT_MS = 10 * 60 * 1000

/** Reads answers line by line from stdin (a terminal or a pipe); echo is the terminal's own. */
class Prompter {
  private readonly lines: string[] = []
  private readonly waiting: ((line: string | undefined) => void)[] = []
  private closed = false
  private readonly rl = createInterface({ input: process.stdin, terminal: false })

  constructor() {
    this.rl.on("line", (line) => {
      const next = this.waiting.shift()
      if (next) next(line)
      else this.lines.push(line)
    })
    this.rl.on("close", () => {
      this.closed = true
      for (const next of this.waiting.splice(0)) next(undefined)
    })
  }

  /** Asks for a secret: on a terminal the typed text is concealed (SGR 8) until the line ends. */
  async askSecret(question: string): Promise<string> {
    if (!process.stdout.isTTY) return this.ask(question)
    try {
      return await this.ask(`${question}\x1b[8m`)
    } finally {
      process.stdout.write("\x1b[28m")
    }
  }

  async ask(question: string): Promise<string> {
    process.stdout.write(question)
    const queued = this.lines.shift()
    if (queued !== undefined) return queued.trim()
    if (this.closed) throw new Error("no answer (the input ended)")
    const line = await new Promise<string | undefined>((resolve) => {
      const timer = setTimeout(() => resolve(undefined), ANSWER_TIMEOUT_MS)
      this.waiting.push((value) => {
        clearTimeout(timer)
        resolve(value)
      })
    })
    if (line === undefined) throw new Error(this.closed ? "no answer (the input ended)" : "no answer within 10 minutes")
    return line.trim()
  }

  close(): void {
    this.rl.close()
  }
}

const PROVIDERS: Record<string, StoredLogin["provider"] | "local"> = {
  "1": "anthropic",
  anthropic: "anthropic",
  "2": "openai",
  openai: "openai",
  "3": "local",
  local: "local",
}

/**
 * `agent-lsp login`: asks which provider, then its API key (or a local OpenAI-compatible server's base URL
 * and an optional key), and stores them in the global settings folder (credentials.json, mode 0600). The
 * servers use them when the environment has no key. Returns the exit code.
 */
export async function login(): Promise<number> {
  const prompter = new Prompter()
  try {
    const choice = await prompter.ask(
      "Provider: 1) anthropic  2) openai  3) local OpenAI-compatible server (Ollama, LM Studio, vLLM…) [1]: ",
    )
    const picked = PROVIDERS[choice.toLowerCase() || "1"]
    if (!picked) {
      process.stderr.write(`agent-lsp login: unknown provider "${choice}"; answer 1, 2 or 3.\n`)
      return 2
    }
    let stored: StoredLogin
    if (picked === "local") {
      const baseUrl = await prompter.ask("Base URL of the server's API, e.g. http://localhost:11434/v1: ")
      if (!isHttpUrl(baseUrl)) {
        process.stderr.write(`agent-lsp login: "${baseUrl}" is not an http(s) URL.\n`)
        return 2
      }
      const apiKey = await prompter.askSecret("API key (empty if the server needs none): ")
      stored = { provider: "openai", baseUrl, ...(apiKey ? { apiKey } : {}), savedAt: new Date().toISOString() }
    } else {
      const apiKey = await prompter.askSecret(`${picked === "anthropic" ? "Anthropic" : "OpenAI"} API key: `)
      if (!apiKey) {
        process.stderr.write("agent-lsp login: no key given; nothing was stored.\n")
        return 2
      }
      stored = { provider: picked, apiKey, savedAt: new Date().toISOString() }
    }
    const file = writeStoredLogin(stored)
    process.stdout.write(`\nStored in ${file} (readable only by you). agent-lsp uses it when the environment has no key.\n`)
    return 0
  } catch (error) {
    process.stderr.write(`agent-lsp login: ${(error as Error).message}; nothing was stored.\n`)
    return 1
  } finally {
    prompter.close()
  }
}

/** `agent-lsp logout`: removes the stored login. */
export function logout(): number {
  const had = readStoredLogin() !== undefined
  removeStoredLogin()
  process.stdout.write(had ? `Removed ${storedLoginFile()}.\n` : "There was no stored login.\n")
  return 0
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}
