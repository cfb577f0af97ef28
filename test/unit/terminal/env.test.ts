import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { describe, expect, it, onTestFinished } from "vitest"
import { commandEnv, commandShell, shellDialect, shellReadingGap, withExactEnv } from "../../../server/src/terminal/env"

describe("command environment", () => {
  it("drops the Anthropic key and other API keys and auth tokens, keeps the rest", () => {
    const env = commandEnv({
      PATH: "/bin",
      HOME: "/home/u",
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_AUTH_TOKEN: "tok",
      OPENAI_API_KEY: "sk",
      GITHUB_AUTH_TOKEN: "gh",
      AWS_SECRET_KEY: "aws",
    })
    expect(env).toEqual({
      PATH: "/bin",
      HOME: "/home/u",
      PAGER: "cat",
      GIT_PAGER: "cat",
      GIT_TERMINAL_PROMPT: "0",
      GIT_CONFIG_COUNT: "2",
      GIT_CONFIG_KEY_0: "safe.bareRepository",
      GIT_CONFIG_VALUE_0: "explicit",
      GIT_CONFIG_KEY_1: "core.fsmonitor",
      GIT_CONFIG_VALUE_1: "false",
    })
  })

  it("drops secrets named as real tools name them, and keeps look-alikes that hold none", () => {
    const secrets = {
      DD_APIKEY: "a",
      GOOGLE_API_KEY_2: "b",
      AZURE_DEVOPS_EXT_PAT: "c",
      npm_config__auth: "d",
      OP_SESSION_my: "e",
      BW_SESSION: "f",
      SMTP_PASS: "g",
      GPG_PASSPHRASE: "h",
      SLACK_WEBHOOK_URL: "i",
      SENTRY_DSN: "j",
      SESSION_COOKIE: "k",
      HF_TOKEN: "l",
      GOOGLE_APPLICATION_CREDENTIALS: "m",
    }
    const kept = {
      PATH: "/bin",
      KEYTIMEOUT: "1",
      SSH_ASKPASS: "/usr/bin/ask",
      XDG_SESSION_TYPE: "x11",
      PASSAGE_DIR: "/p",
      TOKENIZERS_PARALLELISM: "false",
    }
    const env = commandEnv({ ...secrets, ...kept })
    for (const name of Object.keys(secrets)) expect(env, name).not.toHaveProperty(name)
    for (const [name, value] of Object.entries(kept)) expect(env[name], name).toBe(value)
  })

  it("drops CI identity tokens, npm registry tokens and registry logins, and the password of every URL in a value", () => {
    const env = commandEnv({
      CI_JOB_JWT: "eyJ.a.b",
      CI_JOB_JWT_V2: "eyJ.c.d",
      "npm_config_//registry.example.com/:_authToken": "npm-tok",
      DOCKER_AUTH_CONFIG: '{"auths":{}}',
      DATABASE_URL: "postgres://app:S3cr3t-pw@db.example.com:5432/app",
      PIP_EXTRA_INDEX_URL: "https://u:tok1@a.example.com/simple https://b.example.com/simple https://:tok2@c.example.com/",
      HTTP_PROXY: "http://me:proxy-pw@proxy:3128",
      EMAIL: "me@example.com",
      NOTE: "see http://example.com/@user",
    })
    for (const name of ["CI_JOB_JWT", "CI_JOB_JWT_V2", "npm_config_//registry.example.com/:_authToken", "DOCKER_AUTH_CONFIG"])
      expect(env[name]).toBeUndefined()
    expect(env.DATABASE_URL).toBe("postgres://app@db.example.com:5432/app")
    expect(env.PIP_EXTRA_INDEX_URL).toBe("https://u@a.example.com/simple https://b.example.com/simple https://@c.example.com/")
    expect(env.HTTP_PROXY).toBe("http://me@proxy:3128")
    expect(env.EMAIL).toBe("me@example.com")
    expect(env.NOTE).toBe("see http://example.com/@user")
    expect(JSON.stringify(env)).not.toMatch(/S3cr3t|tok1|tok2|proxy-pw|npm-tok|eyJ/)
  })

  it("runs a command with exactly the given environment, none of its starter's, values kept byte for byte and out of the argv (real sh)", () => {
    const given = { PATH: "/usr/bin:/bin", QUOTED: 'it\'s $(touch pwned) `x` \\ "q"\nline two', EMPTY: "", "BAD-NAME": "skipped" }
    const exact = withExactEnv(given, "/usr/bin/env", ["-0"])
    onTestFinished(() => exact.dispose())
    const run = spawnSync(exact.file, exact.args, { env: { ...process.env, EDITOR_TOKEN: "from-the-starter" }, encoding: "utf8" })
    expect(run.status).toBe(0)
    const seen = Object.fromEntries(
      run.stdout
        .split("\0")
        .filter(Boolean)
        .map((kv) => [kv.slice(0, kv.indexOf("=")), kv.slice(kv.indexOf("=") + 1)]),
    )
    expect(seen.PATH).toBe(given.PATH)
    expect(seen.QUOTED).toBe(given.QUOTED)
    expect(seen.EMPTY).toBe("")
    expect(seen).not.toHaveProperty("EDITOR_TOKEN")
    expect(seen).not.toHaveProperty("BAD-NAME")
    // Only what a shell sets by itself besides (dash: PWD).
    expect(
      Object.keys(seen)
        .filter((name) => !(name in given))
        .every((name) => ["PWD", "OLDPWD", "SHLVL", "_"].includes(name)),
    ).toBe(true)
    expect(exact.args.join(" ")).not.toContain("it's")
    expect(existsSync(join(process.cwd(), "pwned"))).toBe(false)
  })

  it("drops what would make the shell read a line differently: startup files, options, exported functions (real bash)", () => {
    const dir = mkdtempSync(join(tmpdir(), "bash-env-"))
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
    const startup = join(dir, "startup.sh")
    writeFileSync(startup, `touch ${join(dir, "startup-ran")}\n`)
    const hostile = {
      PATH: "/usr/bin:/bin",
      BASH_ENV: startup,
      ENV: startup,
      BASHOPTS: "expand_aliases",
      SHELLOPTS: "xtrace",
      CDPATH: "/",
      "BASH_FUNC_ls%%": `() { touch ${join(dir, "function-ran")}; }`,
    }
    const env = commandEnv(hostile)
    for (const name of Object.keys(hostile).filter((n) => n !== "PATH")) expect(env[name], name).toBeUndefined()
    spawnSync(commandShell()[0]!, [...commandShell().slice(1), "ls >/dev/null"], { cwd: dir, env })
    expect(existsSync(join(dir, "startup-ran"))).toBe(false)
    expect(existsSync(join(dir, "function-ran"))).toBe(false)
    // The same environment unfiltered does run them: the test can see the attack work.
    spawnSync("/bin/bash", ["--noprofile", "--norc", "-c", "ls >/dev/null"], { cwd: dir, env: hostile })
    expect(existsSync(join(dir, "startup-ran"))).toBe(true)
    expect(existsSync(join(dir, "function-ran"))).toBe(true)
  })

  it("appends git's hardening after the pairs the user's environment already sets, keeping them", () => {
    const env = commandEnv({ GIT_CONFIG_COUNT: "1", GIT_CONFIG_KEY_0: "user.name", GIT_CONFIG_VALUE_0: "Me" })
    expect(env).toMatchObject({
      GIT_CONFIG_COUNT: "3",
      GIT_CONFIG_VALUE_0: "Me",
      GIT_CONFIG_KEY_1: "safe.bareRepository",
      GIT_CONFIG_KEY_2: "core.fsmonitor",
      GIT_CONFIG_VALUE_2: "false",
    })
  })

  it("runs commands with bash without startup files by default, /bin/sh only when chosen, never $SHELL", () => {
    expect(commandShell()).toEqual(["/bin/bash", "--noprofile", "--norc", "-c"])
    expect(commandShell("bash")).toEqual(["/bin/bash", "--noprofile", "--norc", "-c"])
    expect(commandShell("sh")).toEqual(["/bin/sh", "-c"])
    expect(shellDialect("bash")).toBe("bash")
    expect(shellReadingGap("bash")).toBeUndefined()
  })

  it("falls back to /bin/sh where bash is missing, reads the line as sh, and says why every such line asks", () => {
    expect(commandShell("bash", "/nonexistent/bash")).toEqual(["/bin/sh", "-c"])
    expect(shellDialect("bash", "/nonexistent/bash")).toBe("sh")
    expect(shellReadingGap("bash", "/nonexistent/bash")).toMatch(/bash is not installed at \/nonexistent\/bash/)
    expect(shellReadingGap("sh", "/nonexistent/bash")).toBeUndefined()
  })
})

describe("git under the agent", () => {
  /** A folder that looks like a bare repository whose config names an fsmonitor program that leaves a mark. */
  function bareLooking(root: string, marker: string): string {
    const dir = join(root, "vendored")
    mkdirSync(join(dir, "objects"), { recursive: true })
    mkdirSync(join(dir, "refs", "heads"), { recursive: true })
    writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n")
    writeFileSync(
      join(dir, "config"),
      `[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch ${marker}; false"\n`,
    )
    return dir
  }

  const base = { PATH: "/usr/bin:/bin", HOME: tmpdir() }

  it("does not run a bare-looking folder's fsmonitor program on git status (real git)", () => {
    const root = mkdtempSync(join(tmpdir(), "git-hardening-"))
    onTestFinished(() => rmSync(root, { recursive: true, force: true }))
    const marker = join(root, "fsmonitor-ran")
    const dir = bareLooking(root, marker)
    // Without the hardening git runs it: the test can see the attack work.
    spawnSync("git", ["status"], { cwd: dir, env: base })
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)
    const hardened = spawnSync("git", ["status"], { cwd: dir, env: commandEnv(base), encoding: "utf8" })
    expect(existsSync(marker)).toBe(false)
    expect(hardened.stderr).toMatch(/safe.bareRepository/)
  })

  it("does not run the fsmonitor program a repository's own .git/config names (real git)", () => {
    const root = mkdtempSync(join(tmpdir(), "git-hardening-"))
    onTestFinished(() => rmSync(root, { recursive: true, force: true }))
    const marker = join(root, "fsmonitor-ran")
    spawnSync("git", ["init", "-q", root], { env: base })
    spawnSync("git", ["config", "core.fsmonitor", `touch ${marker}; false`], { cwd: root, env: base })
    spawnSync("git", ["status"], { cwd: root, env: base })
    expect(existsSync(marker)).toBe(true)
    rmSync(marker)
    const hardened = spawnSync("git", ["status"], { cwd: root, env: commandEnv(base), encoding: "utf8" })
    expect(hardened.status).toBe(0)
    expect(existsSync(marker)).toBe(false)
  })
})
