import { existsSync } from "node:fs"
import { mkdir, readFile, rename, writeFile } from "node:fs/promises"
import { dirname, join, relative, sep } from "node:path"
import { git, readBlobs, splitNul } from "./git"
import { settings, SETTINGS_VERSION } from "./repo-config"
import { parseStatus, sortByKind, STATUS } from "./scan"
import { listSnapshotFiles } from "./walk"

/** One entry of a snapshot tree. */
export interface TreeEntry {
  mode: string
  oid: string
}

/**
 * A git repository outside the workspace (`--git-dir` in the state directory, `--work-tree` the
 * workspace) that records snapshots. The user's own `.git` is never read or written. Its index is kept
 * between snapshots, so staging hashes only files whose stat data changed.
 */
export class ShadowRepo {
  private ready: Promise<void> | undefined
  /** Whether this process has asked git for tracked files that are now ignored (see snapshotTree). */
  private ignoreChecked = false

  constructor(
    readonly gitDir: string,
    readonly workTree: string,
    private readonly maxFileBytes: () => number,
  ) {}

  /** Runs git on this repository; `optionalLocks` lets a status write its findings to the index. */
  run(args: string[], input?: Buffer | string, optionalLocks = false): Promise<Buffer> {
    return git(this.gitDir, this.workTree, args, { input, optionalLocks })
  }

  /** Creates and configures the repository once. */
  init(): Promise<void> {
    this.ready ??= this.doInit()
    return this.ready
  }

  private async doInit(): Promise<void> {
    const marker = join(this.gitDir, "agent-lsp-ready")
    const version = await readFile(marker, "utf8").catch(() => undefined)
    if (version === SETTINGS_VERSION && existsSync(join(this.gitDir, "HEAD"))) return
    // A repository made by an older version keeps its history and index and gets today's settings.
    if (!existsSync(join(this.gitDir, "HEAD"))) {
      await mkdir(this.gitDir, { recursive: true })
      await this.run(["init", "-q", "--template=", "-b", "checkpoints"])
    }
    for (const [key, value] of settings(this.workTree, this.gitDir)) await this.run(["config", key, value])
    // Byte-for-byte snapshots: no line-ending, filter or encoding conversion from the workspace's .gitattributes.
    await mkdir(join(this.gitDir, "info"), { recursive: true })
    await writeFile(join(this.gitDir, "info", "attributes"), "* -text -eol -filter -ident -working-tree-encoding\n")
    // A state directory inside the workspace must not snapshot itself.
    const inside = relative(this.workTree, this.gitDir)
    if (inside && !inside.startsWith("..") && !inside.startsWith(sep)) {
      await writeFile(join(this.gitDir, "info", "exclude"), `/${inside.split(sep).join("/")}/\n`)
    }
    await writeFile(marker, SETTINGS_VERSION)
  }

  /**
   * Stages the workspace as it is now and returns the tree id. Only what git reports as modified or
   * untracked since the last snapshot is looked at (the index keeps stat data, its untracked cache the
   * folders' stat data), so a few changed files in a large workspace cost little. Paths are given to
   * update-index explicitly, so files of nested repositories become plain blobs (never gitlinks).
   */
  async snapshotTree(): Promise<string> {
    await this.init()
    // One pass: tracked files whose content may differ (git compares stat data, and content when the
    // stat data is racy) and untracked, not ignored files; nested repositories git does not track yet
    // appear as "dir/". status writes refreshed stat data and its untracked cache back to the index.
    const status = parseStatus(await this.run(STATUS, undefined, true))
    const candidates = new Set<string>(status.changed)
    const limit = this.maxFileBytes()
    for (const path of status.untracked) {
      if (!path.endsWith("/")) candidates.add(path)
      else for (const file of await listSnapshotFiles(this.workTree, { skip: new Set([this.gitDir]) }, path)) candidates.add(file)
    }
    // Tracked files that a .gitignore now excludes. Asking git is a second pass over every tracked path,
    // so only when an ignore file changed, and once per process (the index may predate this server).
    const ignored = this.ignoreChecked && ![...candidates].some(isIgnoreFile) ? [] : splitNul(await this.run(IGNORED_TRACKED))
    this.ignoreChecked = true
    // A file both changed and now ignored leaves the snapshot (staging it after the removal would keep it).
    for (const path of ignored) candidates.delete(path)
    const { keep, drop } = await sortByKind(this.workTree, [...candidates].sort(), limit)
    const remove = [...ignored, ...drop]
    if (remove.length > 0) await this.run(["update-index", "-z", "--force-remove", "--stdin"], nulList(remove.sort()))
    if (keep.length <= PACK_FROM) {
      if (keep.length > 0) await this.run(["update-index", "-z", "--add", "--replace", "--stdin"], nulList(keep))
    } else {
      for (let at = 0; at < keep.length; at += PACK_BATCH)
        await this.run([...INTO_ONE_PACK, "update-index", "-z", "--add", "--replace", "--stdin"], nulList(keep.slice(at, at + PACK_BATCH)))
    }
    return (await this.run(["write-tree"])).toString("utf8").trim()
  }

  /**
   * Points a branch at a commit by writing its loose ref file (temp + rename): the same as
   * `git update-ref` without another process. Only the checkpoint service writes this repository.
   */
  async setRef(ref: string, id: string): Promise<void> {
    const file = join(this.gitDir, ref)
    await mkdir(dirname(file), { recursive: true })
    await writeFile(`${file}.tmp`, `${id}\n`)
    await rename(`${file}.tmp`, file)
  }

  /**
   * What turns tree `from` into `to`: entries to write (path, mode, blob) and paths to delete (deepest
   * first). Only differing entries are listed, so restoring a few files of a large tree stays cheap.
   */
  async treeChanges(from: string, to: string): Promise<{ changed: [string, TreeEntry][]; deleted: string[] }> {
    const fields = splitNul(await this.run(["diff-tree", "-r", "-z", "--raw", "--no-renames", from, to]))
    const changed: [string, TreeEntry][] = []
    const deleted: string[] = []
    for (let i = 0; i + 1 < fields.length; i += 2) {
      // ":<old mode> <new mode> <old oid> <new oid> <status>" then the path.
      const [, newMode, , newOid, status] = fields[i]!.slice(1).split(" ")
      const path = fields[i + 1]!
      if (status === "D") deleted.push(path)
      else changed.push([path, { mode: newMode!, oid: newOid! }])
    }
    return { changed, deleted: deleted.sort().reverse() }
  }

  /** Reads blobs in one `cat-file --batch` process. */
  readBlobs(oids: string[]): Promise<Map<string, Buffer>> {
    return readBlobs((args, input) => this.run(args, input), oids, "the shadow repository")
  }
}

/** `git ls-files` of tracked files that the ignore rules now exclude. */
const IGNORED_TRACKED = ["ls-files", "-z", "-c", "-i", "--exclude-standard"]

/**
 * Staging more files than this writes them into one pack instead of one loose object file each. With
 * core.bigFileThreshold=1 git streams every blob through its bulk-checkin pack (one file for the whole
 * batch, fast deflate): 10k files staged in ~0.7 s of system time against ~6 s as loose objects on this
 * machine's disk. Small batches stay loose, so later checkpoints do not pile up tiny packs. Only the
 * staging command gets the setting (diff would otherwise call every file binary).
 */
const PACK_FROM = 200
/**
 * Files per pack. git 2.39's bulk checkin looks for each new blob in a plain list of the blobs already in
 * its pack, so one pack of n files costs O(n²) comparisons: 100k files in one update-index took 23 s of
 * CPU, against 10 s for `git add -A`.
 */
const PACK_BATCH = 10_000
const INTO_ONE_PACK = ["-c", "core.bigFileThreshold=1", "-c", "pack.compression=1"]

function isIgnoreFile(path: string): boolean {
  return path === ".gitignore" || path.endsWith("/.gitignore")
}

/**
 * Paths for `update-index --stdin`, which the callers sort: git inserts each into its sorted index, so
 * 100k paths in the order their lstat calls happened to finish cost a move of the whole entry array each
 * (24 s of CPU for the first checkpoint of 100k files, against 9 s for `git add -A`).
 */
function nulList(paths: string[]): string {
  return `${paths.join("\0")}\0`
}
