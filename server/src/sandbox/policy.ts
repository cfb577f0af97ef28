import { realpathSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { isAbsolute, join, normalize } from "node:path"
import { defaultStateDir } from "../config/paths"
import type { Settings } from "../config/schema"
import { isInside } from "../workspace/sandbox"
import {
  GIT_DIR_READ_ONLY,
  HOME_STARTUP_PATHS,
  PROTECTED_DIRS,
  PROTECTED_NAMES,
  userConfigDir,
  WORKTREE_ADMIN_READ_ONLY,
  WORKTREE_CONFIG,
} from "../config/protected-paths"

/**
 * What a sandboxed command may do, as data: the one place docs/sandbox.md is written from
 * (`sandboxRulesText`), and what ./bwrap-args.ts turns into bubblewrap arguments.
 */

/**
 * What under the user's home is hidden from every command (an empty tmpfs over a folder, an empty read-only
 * file over a file), by what it holds. Relative to $HOME; the ones that do not exist are skipped (a missing
 * name costs one stat per command, an existing one a mount). Files are named rather than their folders where
 * the folder also holds what builds need (`~/.cargo` its registry, `~/.m2` its repository, `~/.claude` its
 * settings). Users add their own with agent.sandbox.hiddenPaths.
 */
export const MASKED_HOME_GROUPS: Readonly<Record<string, readonly string[]>> = {
  "keys and cloud credentials": [
    ".ssh",
    ".aws",
    ".gnupg",
    ".azure",
    ".kube",
    ".docker",
    ".oci",
    ".config/gcloud",
    ".config/doctl",
    ".config/sops",
    ".config/containers/auth.json",
    ".s3cfg",
    ".boto",
    ".vault-token",
    ".password-store",
    ".local/share/keyrings",
    ".config/op",
    ".config/Bitwarden CLI",
  ],
  "package registry and service tokens": [
    ".netrc",
    ".git-credentials",
    ".npmrc",
    ".yarnrc.yml",
    ".pypirc",
    ".pgpass",
    ".my.cnf",
    ".databrickscfg",
    ".cargo/credentials",
    ".cargo/credentials.toml",
    ".gem/credentials",
    ".m2/settings.xml",
    ".m2/settings-security.xml",
    ".gradle/gradle.properties",
    ".nuget/NuGet/NuGet.Config",
    ".config/composer/auth.json",
    ".composer/auth.json",
    ".terraform.d/credentials.tfrc.json",
    ".config/helm",
    ".config/rclone",
    ".config/gh",
    ".config/hub",
    ".config/glab-cli",
    ".config/netlify",
    ".config/ngrok",
    ".config/stripe",
    ".config/.wrangler",
    ".wrangler",
    ".fly",
    ".local/share/com.vercel.cli",
  ],
  "AI agents' logins": [
    ".config/agent-lsp",
    ".claude/.credentials.json",
    ".codex/auth.json",
    ".gemini/oauth_creds.json",
    ".config/github-copilot",
  ],
  "browser, mail and chat profiles (session cookies, saved passwords)": [
    ".mozilla",
    ".thunderbird",
    ".config/google-chrome",
    ".config/chromium",
    ".config/BraveSoftware",
    ".config/microsoft-edge",
    ".config/vivaldi",
    ".config/opera",
    ".config/Slack",
    ".config/discord",
    ".config/Signal",
    ".local/share/TelegramDesktop",
  ],
  "shell and REPL histories (commands typed with a token in them)": [
    ".bash_history",
    ".zsh_history",
    ".histfile",
    ".local/share/fish/fish_history",
    ".python_history",
    ".node_repl_history",
    ".psql_history",
    ".mysql_history",
    ".sqlite_history",
    ".rediscli_history",
  ],
}

/** Every path of MASKED_HOME_GROUPS. */
export const MASKED_HOME_PATHS: readonly string[] = Object.values(MASKED_HOME_GROUPS).flat()

/**
 * Addresses of this machine itself that an approved or allowed host *name* may not lead to (the proxy,
 * ./network-proxy.ts, checks where each name resolves): loopback, "this host" and link-local (where cloud
 * metadata services answer). A user who approves `localtest.me`, `127.0.0.1.nip.io` or `2130706433` is not
 * told it is their own machine, whose services (a dev server, a database, Docker's TCP socket) run outside the
 * sandbox. Such a service is reached only by its address as written (`127.0.0.1:8080`, `[::1]:8080`) or as
 * `localhost`, which the question then names. Private networks (10/8, 192.168/16…) are not in this list:
 * company hosts resolve there.
 */
export const LOCAL_ADDRESS_RANGES: readonly { network: string; prefix: number; family: "ipv4" | "ipv6" }[] = [
  { network: "127.0.0.0", prefix: 8, family: "ipv4" },
  { network: "0.0.0.0", prefix: 8, family: "ipv4" },
  { network: "169.254.0.0", prefix: 16, family: "ipv4" },
  { network: "::1", prefix: 128, family: "ipv6" },
  { network: "::", prefix: 128, family: "ipv6" },
  { network: "fe80::", prefix: 10, family: "ipv6" },
]

/**
 * System calls no sandboxed command may make (./seccomp.ts turns this into the filter bwrap loads; they fail
 * with EPERM). The kernel keyrings: a command inherits the server's session keyring, where Kerberos tickets
 * (`KEYRING:` credential caches), eCryptfs passphrases and other login secrets are kept, and no mount
 * reaches it. Flatpak's sandbox refuses the same three.
 */
export const BLOCKED_SYSCALLS = ["add_key", "request_key", "keyctl"] as const
export type BlockedSyscall = (typeof BLOCKED_SYSCALLS)[number]

/**
 * A protected path that does not exist cannot be bound read-only, so a command could create it (a first
 * `.envrc` that direnv runs, a `.vscode/tasks.json`, an `AGENTS.md` prompt injection). These are held instead
 * by an empty placeholder made at the path for the command's length and removed after it: every protected
 * name at the top of each workspace folder (in the spelling its readers look for), and a git directory's
 * config, hooks and info. An empty folder rather than a file for all but `config`: creating a file, a folder
 * or anything inside it then fails ("Is a directory", "Permission denied"), and git, checkpoints and
 * review never see an empty folder (an empty file would be listed and `git add -A`-ed). git reads an empty
 * `config` file as an empty configuration, where a folder would make it fail. `commondir` holds "." (the git
 * directory itself, which is what git assumes when there is none): git fails on an empty one or a folder.
 *
 * Each placeholder folder is covered like a hidden folder (EMPTY_FOLDER_COVER); the placeholder files by a
 * read-only bind.
 */
export const MISSING_PLACEHOLDERS: {
  readonly atWorkspaceTop: readonly string[]
  readonly inGitDir: readonly string[]
  /** The names held by a file rather than a folder, with what the file holds. */
  readonly files: Readonly<Record<string, string>>
} = {
  // The protected file names in the spelling their readers look for, then the protected folders.
  atWorkspaceTop: [...[...PROTECTED_NAMES].map((name) => (name === "agents.md" ? "AGENTS.md" : name)), ...PROTECTED_DIRS],
  // config.worktree only where git reads it (WorkspaceScan.worktreeConfigDirs): elsewhere a new one does nothing.
  inGitDir: GIT_DIR_READ_ONLY.filter((name) => name !== WORKTREE_CONFIG),
  files: { config: "", commondir: ".\n", [WORKTREE_CONFIG]: "" },
}

/**
 * How a folder is hidden (a credential folder, a `.rooignore`d one) or a missing protected path held: an
 * empty tmpfs of this mode over it. Creating, writing or removing anything in it fails ("Permission denied",
 * "Is a directory" for a file name held by a folder), and nothing in it ever reaches the disk: a command
 * that `chmod`s it first writes into memory that vanishes with the sandbox. Not a read-only bind (or a
 * tmpfs remounted read-only): for each of those bwrap re-reads the whole mount table, ~0.2 ms per path,
 * where a tmpfs costs ~0.05 ms (`npm run bench -- sandbox-pieces`), and a developer's home alone has half a
 * dozen credential folders to hide before every command.
 */
export const EMPTY_FOLDER_COVER = { mode: "0555" } as const

/**
 * The git config keys a repository made by a command may keep (./new-git-dirs.ts): what `git init`, `git
 * clone` and `git submodule` write and settings that name no program. Any other key is removed, since many
 * name a program git runs (core.fsmonitor, core.hooksPath, core.sshCommand, core.pager, alias.* with "!",
 * filter.*, diff.*.textconv, credential.helper, gpg.program, include.path, submodule.*.update, …), and an
 * allow list stays safe when git adds new ones. Lower case, as `git config --list` prints section and key names.
 */
export const PLAIN_GIT_CONFIG_KEYS: readonly RegExp[] = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|ignorecase|precomposeunicode|symlinks|worktree|autocrlf|eol|safecrlf|quotepath|sharedrepository|sparsecheckout|sparsecheckoutcone|untrackedcache)$/,
  /^extensions\.(objectformat|refstorage|worktreeconfig|partialclone)$/,
  /^remote\.[^\n]+\.(url|pushurl|fetch|push|tagopt|mirror|prune|promisor|partialclonefilter)$/,
  /^branch\.[^\n]+\.(remote|merge|rebase|pushremote|description)$/,
  /^submodule\.[^\n]+\.(url|active|branch|shallow|fetchrecursesubmodules|ignore)$/,
  /^user\.(name|email)$/,
  /^init\.defaultbranch$/,
  /^(pull\.rebase|pull\.ff|push\.default|push\.autosetupremote|fetch\.prune|fetch\.recursesubmodules|merge\.ff|index\.sparse|gc\.auto|maintenance\.auto|maintenance\.strategy|status\.showuntrackedfiles)$/,
  /^lfs\.(url|pushurl|repositoryformatversion)$/,
]

/**
 * Dependency and cache folders the workspace scan (./workspace-scan.ts) does not walk into: package managers
 * and tools write them, and a JavaScript project's node_modules alone holds thousands of folders, each of
 * which the scan would stat before every command (~25 ms for this repository's). Inside them, protected
 * names are not bound read-only and `.rooignore` rules are not applied one path at a time; a rule that names
 * the folder itself (`node_modules/`) still masks it whole, and the tools keep their own checks there.
 */
export const UNSCANNED_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules",
  "bower_components",
  ".venv",
  "__pycache__",
  ".tox",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".gradle",
  ".next",
  ".nuxt",
  ".turbo",
])

/**
 * Folders each command gets an empty private tmpfs of its own over: the runtime folders, where the host's
 * Unix sockets live (the Docker daemon's, the D-Bus buses, the user's runtime folder /run/user/UID with
 * its ssh and gpg agents, Wayland, an editor's server). A socket in a read-only mount can still be connected
 * to; ./host-sockets.ts covers the ones elsewhere.
 */
export const PRIVATE_RUNTIME_DIRS: readonly string[] = ["/run", "/var/run"]

/** Where the private temporary folder appears inside the sandbox (TMPDIR points at it). */
export const SANDBOX_TMP = "/tmp"

/**
 * The server's own temporary folder ($TMPDIR, os.tmpdir()) when it is not /tmp: each command gets an empty one
 * of its own over it, as over the runtime folders. The server keeps there what no command may see: every
 * task's private /tmp (a command of one task would read another's), the network proxies' sockets of other
 * commands (one connected to reaches the hosts approved for that command), every command's output, the
 * browser's profiles. Under /tmp and /run these are hidden already. Not when it holds the home (an empty
 * folder there would hide the home), nor `/`. Real path (bubblewrap mounts over what a link names).
 */
export function hostTempCover(tmp: string = tmpdir(), home: string | undefined = homedir()): string | undefined {
  let dir: string
  try {
    dir = realpathSync(tmp)
  } catch {
    return undefined
  }
  if (dir === "/" || [SANDBOX_TMP, ...PRIVATE_RUNTIME_DIRS].some((hidden) => isInside(hidden, dir))) return undefined
  return isInside(dir, home ?? homedir()) ? undefined : dir
}

/** The host folders no command sees (each replaced by an empty one): the runtime folders, /tmp, and hostTempCover(). */
export function hiddenHostFolders(home?: string): string[] {
  const temp = hostTempCover(undefined, home)
  return [SANDBOX_TMP, ...PRIVATE_RUNTIME_DIRS, ...(temp ? [temp] : [])]
}

/** The loopback port inside the sandbox where socat forwards to the server's proxy (HTTP_PROXY points at it). */
export const PROXY_PORT = 3128

/** Where the server's proxy socket is bound inside the sandbox (inside the private tmp, so nothing else sees it). */
export const PROXY_SOCKET_IN_SANDBOX = `${SANDBOX_TMP}/.agent-lsp-proxy.sock`

/** Asks whether a command may reach `host:port`: "once" for this command, "always" for the task, or "deny". */
export type HostDecision = "once" | "always" | "deny"
export type HostAsk = (request: { host: string; port: number }, signal: AbortSignal) => Promise<HostDecision>

/** The sandbox of one command: everything that varies per command or per task. */
export interface SandboxPolicy {
  /** Workspace folders (absolute, real paths): the writable roots. */
  workspaceFolders: readonly string[]
  /** The private temporary folder on the host, shown as /tmp inside (per task); undefined = a fresh one per command. */
  tempDir?: string
  /** Extra paths the user approved writing (absolute): bound writable; one outside the workspace folders before them (it frees nothing below it), one inside after the read-only paths. */
  extraWritablePaths?: readonly string[]
  network: {
    /** Hosts reached without asking (`example.com`, `*.example.com`); from trusted settings only. */
    allowedHosts: readonly string[]
    /** Asked about any other host; undefined = refused (headless, hooks). */
    ask?: HostAsk
    /**
     * True when the command is known not to use the network (shell/network-use.ts): no proxy bridge is set
     * up for it (it costs ~5 ms of CPU per command), so it runs as with the network off.
     */
    unused?: boolean
  }
  /** The user's home (default: os.homedir()), for MASKED_HOME_PATHS and `~/` in hiddenPaths. */
  home?: string
  /** agent.sandbox.hiddenPaths: more paths to hide (absolute, or `~/…`), from trusted settings only. */
  hiddenPaths?: readonly string[]
  /** agent.sandbox.visiblePaths: paths of MASKED_HOME_PATHS to show after all, from trusted settings only. */
  visiblePaths?: readonly string[]
  /** The agent's state folder (tasks, checkpoints), masked like a credential folder. */
  stateDir?: string
}

/** What the user's settings say about hiding, as every sandbox (commands, browser, language servers) takes it. */
export function hidingOf(
  settings: Pick<Settings, "stateDir" | "sandbox">,
): Pick<SandboxPolicy, "stateDir" | "hiddenPaths" | "visiblePaths"> {
  return {
    stateDir: settings.stateDir ?? defaultStateDir(),
    hiddenPaths: settings.sandbox.hiddenPaths,
    visiblePaths: settings.sandbox.visiblePaths,
  }
}

/**
 * Absolute paths to mask for `policy`: the home's credential paths (less the user's visiblePaths), the
 * user's agent-lsp config, the state folder and the user's own hiddenPaths.
 */
export function maskedHostPaths(policy: Pick<SandboxPolicy, "home" | "stateDir" | "hiddenPaths" | "visiblePaths">): string[] {
  const home = policy.home ?? homedir()
  const visible = new Set((policy.visiblePaths ?? []).map((path) => settingPath(path, home)))
  const paths = MASKED_HOME_PATHS.map((rel) => join(home, rel)).filter((path) => !visible.has(path))
  paths.push(userConfigDir())
  if (policy.stateDir) paths.push(policy.stateDir)
  for (const path of policy.hiddenPaths ?? []) {
    const absolute = settingPath(path, home)
    if (absolute) paths.push(absolute)
  }
  return [...new Set(paths)]
}

/** A path of a setting (absolute, or `~/` for the home) as an absolute path; undefined for any other (the settings refuse those). */
function settingPath(path: string, home: string): string | undefined {
  const absolute = path.startsWith("~/") ? join(home, path.slice(2)) : isAbsolute(path) ? normalize(path) : undefined
  return absolute && absolute.length > 1 ? absolute.replace(/\/+$/, "") : absolute
}

/** True when `host` matches one of `patterns` (exact, or `*.domain` for its subdomains), case-insensitively. */
export function hostAllowed(host: string, patterns: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "")
  return patterns.some((raw) => {
    const pattern = raw.toLowerCase().trim()
    if (pattern.startsWith("*.")) return name.endsWith(pattern.slice(1))
    return name === pattern
  })
}

/** The rules as text for users (docs/sandbox.md quotes this; a unit test keeps the two the same). */
export function sandboxRulesText(): string {
  const lines = [
    "- Writes: only in the workspace folders and a private temporary folder (`/tmp` inside the sandbox, one per task), and in a path outside them that the user approved for that command (the question names it). An approved folder frees nothing below it: the protected paths of a workspace folder inside it, and the home's startup files, stay as below.",
    `- Read-only inside the workspace (at any depth, where they exist; names in any case; where one is missing at the top of a workspace folder, or in a git directory, an empty placeholder holds its place for the command's length, so it cannot be created: it shows as an empty folder nothing can be written in, or a read-only file, empty, or holding \`.\` for a git directory's \`commondir\`, which git reads as no redirection): the files ${[...PROTECTED_NAMES].map((n) => `\`${n}\``).join(", ")} and the folders ${[...PROTECTED_DIRS].map((n) => `\`${n}/\``).join(", ")}, except that in a git directory (\`.git\`, a submodule's in \`.git/modules/\`, or a folder holding \`HEAD\`, \`objects/\` and \`refs/\`) only ${GIT_DIR_READ_ONLY.map((n) => `\`${n}\``).join(", ")} are read-only, so git can still commit, and in a linked worktree's folder there (\`.git/worktrees/NAME\`) ${WORKTREE_ADMIN_READ_ONLY.map((n) => `\`${n}\``).join(" and ")}; a missing \`${WORKTREE_CONFIG}\` is held only where the repository's config turns on \`extensions.worktreeConfig\` (elsewhere git never reads it).`,
    `- Read-only where the home lies inside a workspace folder (an editor opened on \`~\`) or inside a folder the user approved writing (existing or not, as above): the startup files and folders that shells, git, editors, the desktop and \`PATH\` read later, outside the sandbox: ${HOME_STARTUP_PATHS.map((p) => `\`~/${p}\``).join(", ")}.`,
    "- Protected symlinks (`AGENTS.md` → `CLAUDE.md`, a dotfile manager's `~/.bashrc`): what they point to is read-only; the link itself cannot be held by a mount, so it is checked when the command ends, put back if the command removed or replaced it, and whatever the command left in its place is kept beside it as `NAME.replaced-by-command-TIME`; the command's output says so.",
    "- Repositories a command makes (`git init sub`, a bare repository under any name, a `.git` file): nothing holds their config while the command runs, so once it has ended, config keys that name a program git would run there outside the sandbox (anything but the plain ones `git init`, `git clone` and `git submodule` write, user name and e-mail, and a few settings that run nothing) are removed, with the file as it was kept as `config.replaced-by-command-TIME`; a hooks folder with anything but git's samples, and a `.git` file that points outside the workspace, are moved aside the same way; the command's output says so. A git run in such a repository while the command is still running (an editor that opens new repositories by itself) is not covered.",
    "- A rebase in progress: its todo list stays writable (git in the sandbox rebases too), but an `exec` line a command adds to it (it would run at the user's `git rebase --continue`, outside the sandbox) is turned into a comment once the command ends, and the command's output says so; `git rebase --edit-todo` brings back one you meant.",
    `- Hidden (empty): in the home, ${Object.entries(MASKED_HOME_GROUPS)
      .map(([what, paths]) => `${what}: ${paths.map((p) => `\`~/${p}\``).join(", ")}`)
      .join(
        "; ",
      )}; the agent-lsp configuration folder, the agent's state folder, the paths in \`agent.sandbox.hiddenPaths\`, and every path the workspace's \`.rooignore\` ignores (a folder becomes an empty folder, a file an empty read-only file); also where a workspace folder, or a write the user approved, holds them.`,
    `- Not walked for the two rules above: the dependency and cache folders ${[...UNSCANNED_FOLDERS].map((n) => `\`${n}/\``).join(", ")} (package managers write them; a \`.rooignore\` rule naming the folder itself still hides it whole).`,
    "- Processes: a new PID namespace with its own `/proc`: a command sees only its own processes, never the editor's or the server's environment.",
    `- Local services: ${PRIVATE_RUNTIME_DIRS.map((d) => `\`${d}\``).join(" and ")} are empty folders of the command's own, and every other Unix socket bound on the host (\`/proc/net/unix\`) is covered by an empty file, so no command reaches the Docker daemon, the D-Bus buses, an ssh or gpg agent, or an editor's server. (A read-only mount alone does not stop a connection to a socket.) Sockets the command makes itself work as usual.`,
    "- Network: none, except through the agent's proxy to hosts in `agent.sandbox.network.allowedHosts` or hosts the user approves when a command first asks for them. A host name that resolves to an address of this machine (loopback, link-local: `localtest.me`, `127.0.0.1.nip.io`, `2130706433`) is refused even then, since the machine's own services run outside the sandbox; such a service is reached only by its address as written (`127.0.0.1:8080`, `[::1]:8080`) or as `localhost`, which the question names.",
    "- Environment: the server's, without API keys and tokens (also CI identity tokens such as `CI_JOB_JWT`, npm registry tokens, registry logins in `DOCKER_AUTH_CONFIG`, and the password of every URL in a value: `DATABASE_URL=postgres://app:PASSWORD@db/app` reaches a command as `postgres://app@db/app`).",
    "- Privileges: none. Every capability is dropped, also when the server runs as root (in a container), so no command can unmount or remount what the sandbox mounted.",
    `- Kernel keyrings: out of reach. The session keyring a command inherits (where Kerberos tickets, eCryptfs passphrases and other login secrets are kept) is beyond any mount, so a seccomp filter makes ${BLOCKED_SYSCALLS.map((name) => `\`${name}\``).join(", ")} fail with "Operation not permitted", through every system call ABI of the machine (x86-64 and arm64; elsewhere there is no filter).`,
    "- Lifetime: the command dies with the server (`--die-with-parent`) and runs in a new session (no terminal to inject keystrokes into).",
  ]
  return lines.join("\n")
}
