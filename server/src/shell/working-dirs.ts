import type { ShellWord } from "./types"
import { programName } from "./wrappers"

/**
 * Where a command runs, relative to the line's starting directory: the literal `cd`/`pushd` targets taken
 * in order (`[]` is the starting directory itself), or "unknown" when a directory change named its target
 * at run time (`cd $X`, `cd`, `cd -`, `popd`, CDPATH in play) or happened where a reader cannot follow it
 * (in a loop). A relative path argument of a command with an unknown directory cannot be checked.
 */
export type WorkingDirectory = readonly string[] | "unknown"

/** The directories a command may run in; several when a `cd` before it may or may not have happened. */
export type WorkingDirectories = readonly WorkingDirectory[]

/** Before any directory change: the line's starting directory. */
export const STARTING_DIRECTORY: WorkingDirectories = [[]]

/** More candidates than this collapse to "unknown" (each `cd;` doubles them). */
const MAX_CANDIDATES = 16

/** Builtins that change the shell's working directory. */
const CHANGES_DIRECTORY = new Set(["cd", "pushd", "popd", "chdir"])

/** True when `words` (a static program name first) changes the shell's directory. */
export function changesDirectory(words: readonly ShellWord[]): boolean {
  const first = words[0]
  return first?.static === true && CHANGES_DIRECTORY.has(programName(first.text))
}

/**
 * The directories after `words` (a cd, pushd, popd or chdir) succeeded, from `dirs`. Only one literal
 * operand is followed (options such as -P skipped); anything else makes the directory unknown.
 * `cdpath`: the line mentions CDPATH, so a relative target may be looked up elsewhere.
 */
export function afterDirectoryChange(words: readonly ShellWord[], dirs: WorkingDirectories, cdpath: boolean): WorkingDirectories {
  const program = programName(words[0]!.text)
  const operands: ShellWord[] = []
  let options = true
  for (const word of words.slice(1)) {
    if (options && word.static && word.text === "--") options = false
    else if (options && word.static && /^-[LPe@]+$/.test(word.text)) continue
    else {
      options = false
      operands.push(word)
    }
  }
  const target = operands[0]
  const literal =
    program !== "popd" &&
    operands.length === 1 &&
    target!.static &&
    target!.text !== "" &&
    target!.text !== "-" &&
    !/^[+-]\d+$/.test(target!.text) &&
    !(cdpath && !target!.text.startsWith("/") && !target!.text.startsWith("."))
  if (!literal) return ["unknown"]
  return dirs.map((dir) => (dir === "unknown" ? dir : [...dir, target!.text]))
}

/** Every directory either set allows (a change that may have failed, branches, pipeline parts). */
export function unionOf(...sets: WorkingDirectories[]): WorkingDirectories {
  const seen = new Map<string, WorkingDirectory>()
  for (const set of sets) for (const dir of set) seen.set(dir === "unknown" ? "?" : JSON.stringify(dir), dir)
  const all = [...seen.values()]
  if (all.length > MAX_CANDIDATES) return ["unknown"]
  return all
}

/** The starting directory and nothing else: no field is recorded for such a command. */
export function isStarting(dirs: WorkingDirectories): boolean {
  return dirs.length === 1 && dirs[0] !== "unknown" && dirs[0]!.length === 0
}

/**
 * Wrappers that run their command somewhere else: `env -C dir`, `sudo -D dir`, `chroot`, `find -execdir`.
 * The wrapped command's directory is then unknown.
 */
export function wrapperMovesCommand(wrapper: readonly ShellWord[], via: string): boolean {
  if (via === "chroot" || via === "find -execdir" || via === "find -okdir") return true
  const texts = wrapper.map((w) => w.text)
  if (via === "env") return texts.some((t) => t === "-C" || t.startsWith("--chdir") || /^-[^-]*C/.test(t))
  if (via === "sudo") return texts.some((t) => t === "-D" || t.startsWith("--chdir") || /^-[^-]*D/.test(t))
  return false
}

/** Loops: a directory change inside one applies again on the next pass, which a single reading cannot follow. */
const LOOPS = new Set(["while_statement", "for_statement", "c_style_for_statement"])
const CHANGES_DIRECTORY_TEXT = /\b(cd|pushd|popd|chdir)\b/

/**
 * The walker's view of where the next command runs, as it reads a line in order. Sound rather than exact:
 * after a `cd` that may have failed, both directories are candidates; only `cd dir && x` is certain.
 */
export class DirectoryTracker {
  private dirs: WorkingDirectories
  private cdpath: boolean
  /** The last directory change read (its syntax node's id) and where it leads when it succeeded. */
  private lastChange: { id: number; after: WorkingDirectories } | undefined

  /** `outer`: the walker of the text this one was found in (`sh -c`, `eval`, backticks start where it is). */
  constructor(outer?: DirectoryTracker) {
    this.dirs = outer?.dirs ?? STARTING_DIRECTORY
    this.cdpath = outer?.cdpath ?? false
  }

  /** CDPATH makes `cd name` look elsewhere: when a text mentions it, no relative cd target is followed. */
  readingText(text: string): void {
    this.cdpath ||= text.includes("CDPATH")
  }

  /** A loop whose body changes directory: every command from here on may be anywhere. */
  entering(nodeType: string, text: string): void {
    if (LOOPS.has(nodeType) && CHANGES_DIRECTORY_TEXT.test(text)) this.dirs = unionOf(this.dirs, ["unknown"])
  }

  /** A subshell (or substitution): its directory changes stay inside it. */
  isolated(read: () => void): void {
    const saved = this.dirs
    read()
    this.dirs = saved
  }

  /** Each part starts where the pipeline does; later commands may be in any part's directory (zsh runs the last part in the shell). */
  pipeline(parts: (() => void)[]): void {
    const start = this.dirs
    const ends = [start]
    for (const read of parts) {
      this.dirs = start
      read()
      ends.push(this.dirs)
    }
    this.dirs = unionOf(...ends)
  }

  /**
   * `left && right` / `left || right`, with `left` read: call before reading `right`. `cdId`: for `&&`, the
   * node id of the simple command `left` ends with; when that was a directory change, `right` runs only
   * where it leads. Returns the directories after `left`, for `joined`.
   */
  right(cdId: number | undefined): WorkingDirectories {
    const afterLeft = this.dirs
    if (cdId !== undefined && this.lastChange?.id === cdId) this.dirs = this.lastChange.after
    return afterLeft
  }

  /** After the list: `right` may not have run, so either side's directories are possible. */
  joined(afterLeft: WorkingDirectories): void {
    this.dirs = unionOf(afterLeft, this.dirs)
  }

  /** A cd (or `command cd`, `builtin cd`) was read: later commands may run where it leads, or where it failed. */
  change(id: number, words: readonly ShellWord[]): void {
    const after = afterDirectoryChange(words, this.dirs, this.cdpath)
    this.lastChange = { id, after }
    this.dirs = unionOf(this.dirs, after)
  }

  /** A nested text's changes (`eval 'cd x'` moves this shell; counting `sh -c` too only adds candidates). */
  absorb(inner: DirectoryTracker): void {
    this.dirs = unionOf(this.dirs, inner.dirs)
  }

  /** Records on `item` where it runs, unless that is the starting directory. */
  stamp<T extends { workingDirs?: WorkingDirectories }>(item: T, dirs: WorkingDirectories = this.dirs): T {
    if (!isStarting(dirs)) item.workingDirs = dirs
    return item
  }
}
