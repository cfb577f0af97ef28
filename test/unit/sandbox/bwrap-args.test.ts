import { describe, expect, it } from "vitest"
import { bwrapArgs } from "../../../server/src/sandbox/bwrap-args"
import { hostAllowed } from "../../../server/src/sandbox/policy"
import { parseAuthority } from "../../../server/src/sandbox/network-proxy"

describe("bwrapArgs", () => {
  const args = bwrapArgs({
    workspaceFolders: ["/ws"],
    tempDir: "/run/t",
    emptyFile: "/run/empty",
    // Existing host paths stand in for a credential folder and file (only the argv is made here).
    maskedHostPaths: ["/nonexistent-home/.ssh", "/etc", "/etc/passwd"],
    scans: [
      {
        readOnly: ["/ws/.git/config"],
        maskedDirs: ["/ws/secrets"],
        maskedFiles: ["/ws/key.pem"],
        gitDirs: ["/ws/.git"],
        protectedLinks: [],
        worktreeConfigDirs: [],
      },
    ],
    placeholders: ["/ws/.envrc-missing"],
    emptyFolders: ["/ws/AGENTS.md"],
    extraWritablePaths: ["/ws/.envrc"],
    hostSockets: ["/srv/daemon.sock"],
    cwd: "/ws/src",
    newSession: false,
  })
  const at = (...pair: string[]) => args.findIndex((_, i) => pair.every((p, j) => args[i + j] === p))

  it("mounts in the order that lets later rules win: root, tmp, workspace, read-only, approved writes, masks", () => {
    expect(at("--ro-bind", "/", "/")).toBe(0)
    expect(at("--bind", "/run/t", "/tmp")).toBeLessThan(at("--bind", "/ws", "/ws"))
    expect(at("--bind", "/ws", "/ws")).toBeLessThan(at("--ro-bind", "/ws/.git/config", "/ws/.git/config"))
    expect(at("--ro-bind", "/ws/.git/config", "/ws/.git/config")).toBeLessThan(at("--bind", "/ws/.envrc", "/ws/.envrc"))
    expect(at("--bind", "/ws/.envrc", "/ws/.envrc")).toBeLessThan(at("--tmpfs", "/ws/secrets"))
    expect(at("--ro-bind", "/run/empty", "/ws/key.pem")).toBeGreaterThan(0)
    expect(at("--ro-bind", "/ws/.envrc-missing", "/ws/.envrc-missing")).toBeLessThan(at("--bind", "/ws/.envrc", "/ws/.envrc"))
  })

  it("binds an approved folder outside the workspace before the workspace and its read-only paths, so it cannot lay the host's tree over them", () => {
    const withParent = bwrapArgs({
      workspaceFolders: ["/home/u/ws"],
      tempDir: "/run/t",
      emptyFile: "/run/empty",
      maskedHostPaths: [],
      scans: [
        {
          readOnly: ["/home/u/ws/.git/config"],
          maskedDirs: [],
          maskedFiles: [],
          gitDirs: ["/home/u/ws/.git"],
          protectedLinks: [],
          worktreeConfigDirs: [],
        },
      ],
      placeholders: [],
      emptyFolders: [],
      extraWritablePaths: ["/home/u", "/home/u/ws/.envrc"],
      hostSockets: [],
      cwd: "/home/u/ws",
      newSession: false,
    })
    const pos = (...pair: string[]) => withParent.findIndex((_, i) => pair.every((p, j) => withParent[i + j] === p))
    expect(pos("--bind", "/home/u", "/home/u")).toBeGreaterThan(0)
    expect(pos("--bind", "/home/u", "/home/u")).toBeLessThan(pos("--bind", "/home/u/ws", "/home/u/ws"))
    expect(pos("--bind", "/home/u", "/home/u")).toBeLessThan(pos("--ro-bind", "/home/u/ws/.git/config", "/home/u/ws/.git/config"))
    // An approved path inside the workspace still comes after the read-only binds: the approval wins there.
    expect(pos("--bind", "/home/u/ws/.envrc", "/home/u/ws/.envrc")).toBeGreaterThan(
      pos("--ro-bind", "/home/u/ws/.git/config", "/home/u/ws/.git/config"),
    )
  })

  it("makes every bind before the first tmpfs cover (each bind rereads the mount table; a tmpfs does not)", () => {
    const lastBind = Math.max(...args.map((a, i) => (a === "--bind" || a === "--ro-bind" ? i : -1)))
    const tmpfsCovers = args.map((a, i) => (a === "--tmpfs" && args[i + 1] !== "/run" ? i : -1)).filter((i) => i >= 0)
    expect(tmpfsCovers.length).toBeGreaterThan(2)
    expect(Math.min(...tmpfsCovers)).toBeGreaterThan(lastBind)
  })

  it("hides the credential paths after every writable root, so a workspace folder holding the home cannot uncover them", () => {
    const lastWritable = Math.max(at("--bind", "/ws", "/ws"), at("--bind", "/ws/.envrc", "/ws/.envrc"), at("--bind", "/run/t", "/tmp"))
    expect(at("--perms", "0555", "--tmpfs", "/etc")).toBeGreaterThan(lastWritable)
    expect(at("--ro-bind", "/run/empty", "/etc/passwd")).toBeGreaterThan(lastWritable)
    expect(at("--ro-bind", "/run/empty", "/srv/daemon.sock")).toBeGreaterThan(lastWritable)
  })

  it("gives the command an empty /run of its own before the workspace folders (the host's sockets live there)", () => {
    expect(at("--tmpfs", "/run")).toBeGreaterThan(0)
    expect(at("--tmpfs", "/run")).toBeLessThan(at("--bind", "/ws", "/ws"))
    expect(args).not.toContain("/var/run") // a symlink to /run here: covered with it
  })

  it("pins the folders between the workspace and a read-only path as mount points, before the read-only binds", () => {
    // A mount point cannot be renamed: `mv .git old && mkdir .git` must not carry the read-only config away.
    expect(at("--bind", "/ws/.git", "/ws/.git")).toBeGreaterThan(at("--bind", "/ws", "/ws"))
    expect(at("--bind", "/ws/.git", "/ws/.git")).toBeLessThan(at("--ro-bind", "/ws/.git/config", "/ws/.git/config"))
  })

  it("covers a missing file name's placeholder folder with an empty tmpfs nobody may write in, pinned like the read-only ones", () => {
    expect(at("--perms", "0555", "--tmpfs", "/ws/AGENTS.md")).toBeGreaterThan(at("--bind", "/ws", "/ws"))
    // After the approved writes too: nothing bound later can open a path inside the cover.
    expect(at("--perms", "0555", "--tmpfs", "/ws/AGENTS.md")).toBeGreaterThan(at("--bind", "/ws/.envrc", "/ws/.envrc"))
  })

  it("skips hidden paths that do not exist, drops every capability, and unshares pid, net, ipc and uts, dying with its parent", () => {
    expect(args).not.toContain("/nonexistent-home/.ssh")
    expect(at("--cap-drop", "ALL")).toBeGreaterThan(0)
    for (const flag of ["--unshare-pid", "--unshare-net", "--unshare-ipc", "--unshare-uts", "--die-with-parent"])
      expect(args).toContain(flag)
    expect(args).not.toContain("--new-session")
    expect(args.slice(-2)).toEqual(["--chdir", "/ws/src"])
  })
})

describe("bwrapArgs, one cover per path", () => {
  it("binds a path both the scan and the placeholders name once, and leaves an empty folder's path to its tmpfs", () => {
    const args = bwrapArgs({
      workspaceFolders: ["/ws"],
      tempDir: "/run/t",
      emptyFile: "/run/empty",
      maskedHostPaths: [],
      scans: [
        {
          readOnly: ["/ws/.vscode", "/ws/AGENTS.md"],
          maskedDirs: [],
          maskedFiles: [],
          gitDirs: [],
          protectedLinks: [],
          worktreeConfigDirs: [],
        },
      ],
      placeholders: ["/ws/.vscode"],
      emptyFolders: ["/ws/AGENTS.md"],
      extraWritablePaths: [],
      hostSockets: [],
      cwd: "/ws",
      newSession: true,
    })
    expect(args.filter((arg) => arg === "/ws/.vscode")).toHaveLength(2) // --ro-bind /ws/.vscode /ws/.vscode
    expect(args.filter((arg) => arg === "/ws/AGENTS.md")).toHaveLength(1) // --perms 0555 --tmpfs /ws/AGENTS.md
  })
})

describe("network host rules", () => {
  it("matches exact hosts and *.domain subdomains, case-insensitively, and nothing else", () => {
    expect(hostAllowed("Registry.NPMjs.org", ["registry.npmjs.org"])).toBe(true)
    expect(hostAllowed("api.github.com", ["*.github.com"])).toBe(true)
    expect(hostAllowed("github.com", ["*.github.com"])).toBe(false)
    expect(hostAllowed("evilgithub.com", ["*.github.com"])).toBe(false)
    expect(hostAllowed("registry.npmjs.org.evil.com", ["registry.npmjs.org"])).toBe(false)
  })

  it("reads CONNECT authorities and refuses malformed ones", () => {
    expect(parseAuthority("example.com:443")).toEqual({ host: "example.com", port: 443 })
    expect(parseAuthority("[::1]:8080")).toEqual({ host: "::1", port: 8080 })
    expect(parseAuthority("example.com")).toBeUndefined()
    expect(parseAuthority("a b:80")).toBeUndefined()
    expect(parseAuthority("example.com:99999")).toBeUndefined()
  })
})
