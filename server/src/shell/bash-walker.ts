import type { Node, Parser } from "web-tree-sitter"
import type { NotUnderstood, ParsedCommandLine, Redirect, RedirectKind, ShellWord, SimpleCommand } from "./types"
import { backtickGap, bashOnlyConstruct, commentGap, nodeGap, skippedText } from "./reading-gaps"
import { groupWords, joinedWord, wordValue } from "./words"
import { changesDirectory, DirectoryTracker, wrapperMovesCommand } from "./working-dirs"
import { programName, unwrap } from "./wrappers"
import { ARITHMETIC_TEST, ASSIGNING, CONTAINERS, LEAVES, RESERVED } from "./bash-node-kinds"
import {
  arrayFindings,
  builtinNameFindings,
  DeclarationNames,
  runsCode,
  type NameFindings,
  codeVariableReason,
  quotedArithmeticGap,
  testNameFindings,
} from "./evaluated-names"

/**
 * Reads a tree-sitter-bash tree into every simple command the shell would run. The walker knows each node
 * type of the grammar; a type it does not handle, a parse error, a function definition or a program name
 * decided at run time is recorded as not understood, so the line is never approved silently.
 */

/** Nesting of re-parsed texts (backticks, eval, sh -c) beyond which the line is not understood. */
const MAX_DEPTH = 16

export class BashWalker {
  readonly result: ParsedCommandLine & { bashOnly: NotUnderstood[] } = { commands: [], redirects: [], unknown: [], bashOnly: [] }
  private assigns = false
  private arithmeticOnVariable = false
  private arithmeticDepth = 0
  /** The declaration being read (`declare -A m=(…)`: its indexes are words, not arithmetic). */
  private declaring: DeclarationNames | undefined
  /** Lines on which a here-document starts (see visit). */
  private readonly heredocRows = new Set<number>()
  /** Where the next command may run: `cd`/`pushd` within the line (see working-dirs.ts). */
  private readonly dirs: DirectoryTracker

  constructor(
    private readonly parser: Parser,
    private readonly depth = 0,
    outer?: DirectoryTracker,
  ) {
    this.dirs = new DirectoryTracker(outer)
  }

  /** Parses `text` and reads it; call once per walker. */
  read(text: string): ParsedCommandLine {
    if (this.depth > MAX_DEPTH) return this.unknownOnly("nested too deeply to check", text)
    this.dirs.readingText(text)
    const tree = this.parser.parse(text)
    if (!tree) return this.unknownOnly("the parser gave up on this text", text)
    try {
      const skipped = skippedText(tree.rootNode, text)
      if (skipped !== undefined) this.notUnderstood(`text the parser skipped between words (${JSON.stringify(skipped)})`, text)
      this.visit(tree.rootNode, text)
    } finally {
      tree.delete()
    }
    if (this.assigns && this.arithmeticOnVariable)
      this.notUnderstood("arithmetic on a variable this line sets: bash may run its value as code", text)
    return this.result
  }

  private unknownOnly(reason: string, text: string): ParsedCommandLine {
    this.notUnderstood(reason, text)
    return this.result
  }

  private notUnderstood(reason: string, text: string, list: NotUnderstood[] = this.result.unknown): void {
    const shown = text.length > 80 ? `${text.slice(0, 77)}...` : text
    list.push({ reason, text: shown } satisfies NotUnderstood)
  }

  private visit(node: Node, src: string): void {
    if (node.isMissing) return this.notUnderstood("incomplete syntax (something is missing)", node.parent?.text ?? src)
    if (node.type === "ERROR") return this.notUnderstood("syntax the parser does not understand", node.text)
    if (!node.isNamed) return
    const type = node.type
    const bashOnly = bashOnlyConstruct(node, src)
    if (bashOnly) this.notUnderstood(bashOnly, node.text, this.result.bashOnly)
    const gap = nodeGap(node, src, this.arithmeticDepth > 0)
    if (gap) this.notUnderstood(gap, node.text)
    // Several here-documents started on one line take the following lines as bodies in order; tree-sitter
    // may hand them out differently when they stand on different commands (`a <<'E' | b <<E`).
    if (type === "heredoc_redirect") {
      if (this.heredocRows.has(node.startPosition.row))
        this.notUnderstood("several here-documents start on one line (the shell may give them other bodies)", node.text)
      this.heredocRows.add(node.startPosition.row)
    }
    if (LEAVES.has(type)) {
      // A quoted text in arithmetic is evaluated with what it holds (`[[ 'a[$(rm x)]' -eq 1 ]]`).
      const quoted = type === "raw_string" || type === "ansi_c_string" || type === "string_content"
      const evaluated = this.arithmeticDepth > 0 && quoted ? quotedArithmeticGap(node.text) : undefined
      if (evaluated) this.notUnderstood(evaluated, node.text)
      if (
        this.arithmeticDepth > 0 &&
        (type === "variable_name" || type === "simple_expansion" || (type === "word" && /^[A-Za-z_]/.test(node.text)))
      )
        this.arithmeticOnVariable = true
      return
    }
    // Directory changes: a subshell's stay inside it; pipeline parts and list branches may or may not happen.
    if (type === "subshell" || type === "process_substitution") return this.dirs.isolated(() => this.children(node, src, false))
    if (type === "pipeline")
      return this.dirs.pipeline(node.children.filter((c): c is Node => c?.isNamed === true).map((c) => () => this.visit(c, src)))
    if (type === "list") return this.list(node, src)
    this.dirs.entering(type, node.text)
    if (type === "array" && !this.declaring?.associative) this.found(arrayFindings(node), node.text)
    if (CONTAINERS.has(type)) {
      const arithmetic = type === "test_command" && (node.firstChild?.type === "((" || node.firstChild?.type === "[[")
      if (type === "test_command") this.found(testNameFindings(node), node.text)
      return this.children(node, src, arithmetic)
    }
    switch (type) {
      case "comment":
        return this.comment(node, src)
      case "command":
        return this.command(node, src)
      case "declaration_command":
      case "unset_command":
        return this.declaration(node, src)
      case "variable_assignment": {
        this.assigns = true
        const name = node.childForFieldName("name")
        if (name?.type === "variable_name" && runsCode(name.text)) this.notUnderstood(codeVariableReason(name.text), node.text)
        if (node.parent?.type !== "command" && node.parent?.type !== "declaration_command") {
          this.result.commands.push({ words: [], assignments: [node.text], redirects: [], source: node.text })
        }
        return this.children(node, src, false)
      }
      case "redirected_statement":
        return this.children(node, src, false)
      case "file_redirect":
        return this.redirect(node, src)
      case "for_statement":
        this.assigns = true
        return this.children(node, src, false)
      case "c_style_for_statement":
      case "arithmetic_expansion":
        return this.children(node, src, true)
      case "subscript": {
        // The index is arithmetic; the element's value is evaluated too only inside arithmetic (`$(( a[0] ))`),
        // not in `${a[0]}` or `a[0]=1`.
        if (this.arithmeticDepth > 0) return this.children(node, src, true)
        const name = node.childForFieldName("name")
        for (const child of node.children) if (child && child.id !== name?.id) this.visitIn(child, src, true)
        return
      }
      case "expansion":
        return this.expansion(node, src)
      case "command_substitution":
        return this.substitution(node, src)
      case "function_definition":
        this.notUnderstood("defines a function (its body and later calls cannot be matched to the allow list)", node.text)
        // Its body is still read, so the deny list sees what it would run.
        return this.visit(node.childForFieldName("body") ?? node, src)
      default:
        return this.notUnderstood(`shell syntax this checker does not handle (${type})`, node.text)
    }
  }

  /**
   * `cd dir && x` runs x only in dir; `||` and what follows the list may see either directory. `a && b || c`
   * nests to the left, so the chain is read in a loop (a 2,000-link line must not exhaust the stack).
   */
  private list(node: Node, src: string): void {
    const chain: Node[] = []
    let head: Node | null = node
    while (head?.type === "list") {
      chain.unshift(head)
      head = head.firstChild
    }
    if (head) this.visit(head, src)
    for (const link of chain) {
      const [left, ...rest] = link.children
      const operator = rest.find((c) => c && !c.isNamed)?.type
      const afterLeft = this.dirs.right(operator === "&&" && left ? lastCommandOf(left)?.id : undefined)
      for (const child of rest) if (child) this.visit(child, src)
      this.dirs.joined(afterLeft)
    }
  }

  private visitIn(node: Node, src: string, arithmetic: boolean): void {
    if (arithmetic) this.arithmeticDepth++
    this.visit(node, src)
    if (arithmetic) this.arithmeticDepth--
  }

  private children(node: Node, src: string, arithmetic: boolean): void {
    if (arithmetic) this.arithmeticDepth++
    for (const child of node.children) if (child) this.visit(child, src)
    if (arithmetic) this.arithmeticDepth--
  }

  /** tree-sitter ends a word at `#` (`a#b`, `a\<tab>#b`) where the shell does not: a comment must start a word. */
  private comment(node: Node, src: string): void {
    const gap = commentGap(node, src)
    if (gap) this.notUnderstood(gap, node.text)
  }

  private expansion(node: Node, src: string): void {
    const operators = node.children.filter((c) => c && !c.isNamed).map((c) => c!.type)
    // `${x:=v}` assigns v to x.
    if (operators.includes(":=") || operators.includes("=")) this.assigns = true
    if (operators.includes("!") && operators.indexOf("!") === 1)
      this.notUnderstood("an indirect expansion ${!name}, which can run code through array subscripts", node.text)
    if (operators.includes("@") && node.children.some((c) => c?.type === "P" || (c?.text === "P" && !c.isNamed)))
      this.notUnderstood("a prompt expansion ${name@P}, which runs command substitutions in the value", node.text)
    // ${x:offset:length} evaluates its offsets as arithmetic.
    this.children(node, src, operators.includes(":"))
  }

  private substitution(node: Node, src: string): void {
    this.dirs.isolated(() => this.substitutionBody(node, src))
  }

  private substitutionBody(node: Node, src: string): void {
    if (node.firstChild?.type !== "`") return this.children(node, src, false)
    const gap = backtickGap(node)
    if (gap) this.notUnderstood(gap, node.text)
    // tree-sitter does not read nested backticks; the shell unescapes \\, \` and \$ and reads the text again.
    const inner = node.text.slice(1, node.text.endsWith("`") ? -1 : undefined).replace(/\\([\\`$])/g, "$1")
    this.merge(this.nested(inner))
  }

  private nested(text: string): ParsedCommandLine {
    const walker = new BashWalker(this.parser, this.depth + 1, this.dirs)
    const result = walker.read(text)
    this.dirs.absorb(walker.dirs)
    if (walker.assigns) this.assigns = true
    if (walker.arithmeticOnVariable) this.arithmeticOnVariable = true
    return result
  }

  private merge(part: ParsedCommandLine, via?: string): void {
    for (const command of part.commands) this.result.commands.push(via && !command.wrappedBy ? { ...command, wrappedBy: via } : command)
    this.result.redirects.push(...part.redirects)
    this.result.unknown.push(...part.unknown)
    this.result.bashOnly.push(...(part.bashOnly ?? []))
  }

  private redirect(node: Node, src: string, owner?: SimpleCommand): void {
    const descriptor = node.childForFieldName("descriptor")
    const fd = descriptor?.text
    const targets = node.childrenForFieldName("destination").filter((c): c is Node => c !== null)
    // The operator is what stands between the fd and the target (tree-sitter reads `<>` as `<` plus an error).
    const operator = src.slice(descriptor?.endIndex ?? node.startIndex, targets[0]?.startIndex ?? node.endIndex).replace(/\s+/g, "")
    for (const child of node.namedChildren) if (child) this.visit(child, src)
    const target = targets.length > 0 ? joinedWord(targets) : undefined
    const redirect: Redirect = this.dirs.stamp<Redirect>({
      operator,
      kind: redirectKind(operator, target),
      ...(fd ? { fd } : {}),
      ...(target ? { target } : {}),
    })
    this.result.redirects.push(redirect)
    owner?.redirects.push(redirect)
  }

  private declaration(node: Node, src: string): void {
    this.assigns = true
    const keyword = node.firstChild?.type ?? "declare"
    const words: ShellWord[] = [{ text: keyword, static: true }]
    // Saved and put back: a declaration may hold another (`declare y=$(declare x=1)`).
    const outer = this.declaring
    const names = new DeclarationNames(keyword)
    this.declaring = names
    for (const child of node.namedChildren) {
      if (!child) continue
      this.visit(child, src)
      const word: ShellWord = child.type === "variable_name" ? { text: child.text, static: true } : wordValue(child)
      words.push(word)
      names.read(child, word)
    }
    this.declaring = outer
    this.found(names.found, node.text)
    this.result.commands.push(this.dirs.stamp<SimpleCommand>({ words, assignments: [], redirects: [], source: node.text }))
  }

  private command(node: Node, src: string): void {
    const command: SimpleCommand = { words: [], assignments: [], redirects: [], source: node.text }
    const argNodes: Node[] = []
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)
      if (!child) continue
      const field = node.fieldNameForChild(i)
      if (child.type === "variable_assignment") {
        command.assignments.push(child.text)
        this.visit(child, src) // (its name too: `LD_PRELOAD=./x.so ls`)
      } else if (child.type === "file_redirect") this.redirect(child, src, command)
      else if (child.type === "heredoc_redirect" || child.type === "herestring_redirect") {
        this.visit(child, src)
        command.redirects.push({
          operator: child.type === "heredoc_redirect" ? "<<" : "<<<",
          kind: child.type === "heredoc_redirect" ? "heredoc" : "herestring",
        })
      } else if (field === "name" || field === "argument" || !child.isNamed) {
        argNodes.push(child)
        this.visit(child.type === "command_name" ? (child.firstChild ?? child) : child, src)
      } else this.visit(child, src)
    }
    command.words = groupWords(argNodes, src)
    this.result.commands.push(this.dirs.stamp(command))
    if (command.words.length === 0) return
    const name = command.words[0]!
    if (!name.static) return this.notUnderstood("the program to run is decided at run time", command.source)
    // `EOF\<newline>y=1 x`: joined, the shell reads an assignment where the parser read a program.
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(name.text))
      return this.notUnderstood("a program name the shell may read as an assignment", command.source)
    this.checkAlias(command.words, command.source)
    if (RESERVED.has(name.text))
      return this.notUnderstood(
        `the shell keyword "${name.text}" where a command should be (the shell reads this line differently)`,
        command.source,
      )
    const program = programName(name.text)
    if (program === "let") this.arithmeticOnVariable ||= command.words.slice(1).some((w) => /[A-Za-z_]/.test(w.text))
    if (ASSIGNING.has(program)) this.assigns = true
    if (program === "[[" || program === "[" || program === "test") {
      if (command.words.some((w) => ARITHMETIC_TEST.test(w.text))) this.arithmeticOnVariable ||= command.words.some((w) => !w.static)
    }
    this.found(builtinNameFindings(command.words), command.source)
    const first = this.result.commands.length
    this.unwrapInto(command, 0)
    const wrappedCd = this.result.commands
      .slice(first)
      .find((c) => (c.wrappedBy === "command" || c.wrappedBy === "builtin") && changesDirectory(c.words))
    if (changesDirectory(command.words) || wrappedCd) this.dirs.change(node.id, (wrappedCd ?? command).words)
  }

  /** Lists what a wrapper command runs as commands of their own (recursively: `sudo env nice rm`). */
  private unwrapInto(command: SimpleCommand, level: number): void {
    const first = command.words[0]
    if (!first?.static || level > MAX_DEPTH) return
    const found = unwrap(command.words)
    if (!found) return
    // Alone (`env`, `exec 3>f`) a wrapper is a command of its own that needs allowing.
    if (found.transparent && (found.scripts.length > 0 || found.commands.some((c) => c.words.length > 0))) command.transparentWrapper = true
    if (found.unknown) this.notUnderstood(found.unknown, command.source)
    for (const script of found.scripts) this.merge(this.nested(script.text), script.via)
    for (const inner of found.commands) {
      const wrapped: SimpleCommand = {
        words: inner.words,
        assignments: inner.assignments,
        redirects: [],
        source: inner.words.map((w) => w.text).join(" "),
        wrappedBy: inner.via,
      }
      this.result.commands.push(this.dirs.stamp(wrapped, wrapperMovesCommand(command.words, inner.via) ? ["unknown"] : undefined))
      this.found(builtinNameFindings(inner.words), command.source)
      // `time PS4=…` assigns in the shell itself.
      for (const name of inner.assignments.map((a) => a.slice(0, a.indexOf("="))))
        if (runsCode(name)) this.notUnderstood(codeVariableReason(name), command.source)
      const innerName = inner.words[0]
      if (innerName && !innerName.static) this.notUnderstood(`${inner.via} runs a program decided at run time`, command.source)
      else if (innerName && RESERVED.has(innerName.text))
        this.notUnderstood(`${inner.via} is given the shell keyword "${innerName.text}" as its program`, command.source)
      else {
        // `command alias x=rm` defines the alias as surely as `alias x=rm`.
        this.checkAlias(inner.words, command.source)
        this.unwrapInto(wrapped, level + 1)
      }
    }
  }

  /** Records what evaluated-names.ts found: reasons as not understood, a name in a subscript as arithmetic on a variable. */
  private found(findings: NameFindings, source: string): void {
    for (const reason of findings.reasons) this.notUnderstood(reason, source)
    if (findings.arithmetic) this.arithmeticOnVariable = true
  }

  private checkAlias(words: ShellWord[], source: string): void {
    if (words[0]?.static && programName(words[0].text) === "alias" && words.some((w, i) => i > 0 && (!w.static || w.text.includes("="))))
      this.notUnderstood("defines an alias (a later word that looks like one program may run another)", source)
  }
}

/** The simple command a statement ends with (`a && cd x` → `cd x`), through lists and redirections. */
function lastCommandOf(node: Node): Node | undefined {
  let last: Node | null = node
  while (last && (last.type === "list" || last.type === "redirected_statement"))
    last = last.type === "list" ? last.lastNamedChild : (last.childForFieldName("body") ?? last.firstNamedChild)
  return last?.type === "command" ? last : undefined
}

function redirectKind(operator: string, target: ShellWord | undefined): RedirectKind {
  if (operator.endsWith("-")) return "close"
  if (operator === "<>") return "readWrite"
  if (operator === ">&" || operator === "<&") {
    if (target?.static && /^\d+$/.test(target.text)) return "duplicate"
    if (target?.static && target.text === "-") return "close"
    return operator === ">&" ? "write" : "read"
  }
  if (operator.includes(">")) return "write"
  return "read"
}
