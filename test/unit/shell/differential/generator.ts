import fc from "fast-check"

/**
 * Command lines built from the constructs where a static reading and the real shell are most likely to
 * disagree: every quoting form, here-documents with every delimiter form, continuations, comments,
 * substitutions, separators, escapes, ANSI-C and locale strings, `.`/`source`, `eval`, `exec`, `command`,
 * `builtin`, functions, aliases, subshells and redirections. Programs are only the stub names below (each a
 * stub on the test's PATH that logs its argv); words never hold the control characters the log uses.
 */

/** The programs a generated line may start; each is a stub that logs its argv. */
export const STUB_NAMES = ["aa", "bb", "rm", "touch", "EOF", "x"] as const

/** Real programs on the test's PATH besides the stubs and the shells: wrappers whose children are stubs. */
export const WRAPPER_PROGRAMS = ["env"] as const

const stub = fc.constantFrom(...STUB_NAMES)
const plainText = fc.constantFrom("a", "b", "x", "EOF", "1", "-n", "f", ".", "--output=f")

/** One piece of a word, in one quoting form or another. */
const piece: fc.Arbitrary<string> = fc.oneof(
  plainText,
  plainText.map((t) => `'${t}'`),
  plainText.map((t) => `"${t}"`),
  plainText.map((t) => `$'${t}'`),
  plainText.map((t) => `$"${t}"`),
  fc.constantFrom(
    "\\ ",
    "\\\t",
    "\\#",
    "\\;",
    "\\\\",
    "\\'",
    '\\"',
    "\\\n",
    "#",
    "'#'",
    "$'\\''",
    "$'a\\'b'",
    "$'\\x72\\x6d'",
    "$'\\n'",
    "$'\\t#'",
    "$'\\\\'",
    "$'\\101'",
    "$'a\\0b'",
    "$'a\\x00b'",
    "$'a\\c@b'",
    "$'\\u0041'",
    "$'\\u00e9'",
    "$'\\xe9'",
    "$'\\351'",
    "$'\\cA'",
    "$'\\e'",
    "$'\\q'",
    "$'\\\"'",
    "$'\\?'",
    "\r",
    "a\rb",
    "\u00a0",
    '"a\\\nb"',
    '"\\$x"',
    '"\\`"',
    "$((1+2))",
    "$((x))",
    "$[1]",
    "$(aa)",
    "`bb`",
    '"`aa`"',
    '"$(bb)"',
    "${x:-$(aa)}",
    "${#x}",
    "${x%a}",
    "a=b",
    "@(a)",
    "!",
    "{",
    "}",
    "in",
    '"a\\"b"',
    '"\\\\"',
    '"$x"',
    "${x}",
    "${x:-aa}",
    "${x//a/b}",
    "*",
    "{a,b}",
    "~",
    "$'",
    "'",
    '"',
  ),
)

const word = fc.array(piece, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(""))

const programWord = fc.oneof(
  { weight: 4, arbitrary: stub },
  { weight: 1, arbitrary: stub.map((s) => `'${s}'`) },
  { weight: 1, arbitrary: stub.map((s) => `"${s}"`) },
  { weight: 1, arbitrary: stub.map((s) => `$'${s}'`) },
  { weight: 1, arbitrary: stub.map((s) => `${s[0]}\\\n${s.slice(1)}`) },
  { weight: 1, arbitrary: stub.map((s) => `\\${s}`) },
)

const redirect = fc.constantFrom(" > f", " 2>&1", " >> g", " < /dev/null", " &> f", " <<< x", " >& f", " 2>/dev/null")

const delimiter = fc.constantFrom(
  "EOF",
  "'EOF'",
  '"EOF"',
  "\\EOF",
  'E"O"F',
  "E'O'F",
  "$'EOF'",
  '$"EOF"',
  "E\\OF",
  "'E'OF",
  "EOF\\\n",
  "-EOF",
)
const endLine = fc.constantFrom("EOF", "'EOF'", '"EOF"', 'E"O"F', "\\EOF", "$'EOF'", "EOF\\", "\tEOF", "EOF ", "-EOF")

/**
 * Where bash evaluates a name or a quoted text as code (server/src/shell/evaluated-names.ts): CODE stands for
 * a command substitution of a generated statement, COMMAND for the statement itself (in single quotes).
 */
const EVALUATED_FORMS = [
  "printf -v 'a[CODE]' 1",
  "printf -v'a[CODE]' 1",
  "command printf -v 'a[CODE]' 1",
  "read 'a[CODE]' <<< 1",
  "builtin read 'a[CODE]' <<< 1",
  "declare 'a[CODE]=1'",
  "command declare 'a[CODE]=1'",
  "x='a[CODE]'; declare -i y=x",
  "x='a[CODE]'; typeset -i y; y=x",
  "x='a[CODE]'; printf -v \"$x\" 1",
  "x='a[CODE]'; declare \"$x\"=1",
  "x='a[CODE]'; read \"$x\" <<< 1",
  "f=-v; printf \"$f\" 'a[CODE]' 1",
  "[[ 'a[CODE]' -eq 1 ]]",
  "[[ -v 'a[CODE]' ]]",
  "test -v 'a[CODE]'",
  "[ -v 'a[CODE]' ]",
  "(( 'a[CODE]' ))",
  "a=(['CODE']=1)",
  "echo ${a['CODE']}",
  "x='a[CODE]'; arr+=([x]=1)",
  "x='a[CODE]'; declare -a arr=([x]=1)",
  "declare -n r='a[CODE]'; r=1",
  "x='a[CODE]'; declare -n r=\"$x\"; echo $r",
  "mapfile -t arr <<< 'a[CODE]'; echo $(( arr[0] ))",
  "set -- 'a[CODE]'; [[ $1 -eq 0 ]]",
  // `unset` first: nested in CODE, a `${z:=…}` that found the outer z set would evaluate it again, forever.
  "unset z; : ${z:='a[CODE]'}; echo $((z))",
  "PS4='CODE'; set -x; :",
  "export PS4='CODE'; set -o xtrace; :",
  "read PS4 <<< 'CODE'; set -x; :",
  "true & wait -p 'a[CODE]' $!",
  "compgen -C 'COMMAND' x",
  "mapfile -C 'COMMAND' -c 1 m <<< 1",
]

export type Statement = fc.Arbitrary<string>

/** A simple command: optional assignment, a program, words, and perhaps a redirection. */
const simple: Statement = fc
  .tuple(
    fc.option(fc.constantFrom("y=1 ", "x=aa ", "LC_ALL=$LANG "), { nil: "" }),
    programWord,
    fc.array(word, { maxLength: 3 }),
    fc.option(redirect, { nil: "" }),
  )
  .map(([assign, program, args, redir]) => `${assign}${[program, ...args].join(" ")}${redir}`)

const separator = fc.constantFrom("; ", " && ", " || ", " | ", "\n", " & ", " \\\n; ", " |& ", ";\n", " # c\n", " \\\t# c; ")

function statementOf(depth: number): Statement {
  if (depth <= 0) return simple
  const inner = fc.constant(null).chain(() => statementOf(depth - 1))
  const quotedInner = inner.map((s) => s.replaceAll("'", "'\\''"))
  return fc.oneof(
    { weight: 6, arbitrary: simple },
    { weight: 1, arbitrary: inner.map((s) => `(${s})`) },
    { weight: 1, arbitrary: inner.map((s) => `{ ${s}; }`) },
    { weight: 1, arbitrary: inner.map((s) => `echo $(${s})`) },
    { weight: 1, arbitrary: inner.map((s) => `echo "$(${s})"`) },
    { weight: 1, arbitrary: fc.tuple(stub, word).map(([p, w]) => `echo \`${p} ${w}\``) },
    { weight: 1, arbitrary: quotedInner.map((s) => `eval '${s}'`) },
    { weight: 1, arbitrary: inner.map((s) => `eval ${s}`) },
    {
      weight: 1,
      // The shell's own options around -c: its command string is the first word after all of them.
      arbitrary: fc
        .tuple(
          fc.constantFrom("", "-e ", "+x ", "-o errexit "),
          fc.constantFrom("-c", "-ec"),
          fc.constantFrom("", " -x", " --", " -o nounset"),
          quotedInner,
        )
        .map(([before, flag, after, s]) => `bash ${before}${flag}${after} '${s}'`),
    },
    { weight: 1, arbitrary: inner.map((s) => `exec ${s}`) },
    { weight: 1, arbitrary: inner.map((s) => `command ${s}`) },
    { weight: 1, arbitrary: fc.tuple(word).map(([w]) => `builtin echo ${w}`) },
    { weight: 1, arbitrary: inner.map((s) => `f() { ${s}; }; f`) },
    { weight: 1, arbitrary: fc.tuple(stub, stub).map(([a, b]) => `shopt -s expand_aliases; alias ${a}=${b}\n${a} x`) },
    { weight: 1, arbitrary: word.map((w) => `. ./missing ${w}`) },
    { weight: 1, arbitrary: word.map((w) => `source ${w}`) },
    { weight: 1, arbitrary: inner.map((s) => `if aa; then ${s}; fi`) },
    { weight: 1, arbitrary: inner.map((s) => `for i in 1; do ${s}; done`) },
    { weight: 1, arbitrary: inner.map((s) => `[[ -n ${"$"}(${s}) ]]`) },
    { weight: 1, arbitrary: inner.map((s) => `cat <(${s})`) },
    { weight: 1, arbitrary: inner.map((s) => `aa >(${s})`) },
    { weight: 1, arbitrary: fc.tuple(inner, inner).map(([a, b]) => `while ${a}; do ${b}; break; done`) },
    { weight: 1, arbitrary: inner.map((s) => `until aa; do ${s}; done`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(word, fc.constantFrom("a", "a|b", "(a)", "*", '"x"', "a\\)"), inner, inner)
        .map(([w, pattern, a, b]) => `case ${w} in ${pattern}) ${a};; *) ${b};; esac`),
    },
    { weight: 1, arbitrary: fc.tuple(inner, inner, inner).map(([a, b, c]) => `if ${a}; then ${b}; elif aa; then bb; else ${c}; fi`) },
    { weight: 1, arbitrary: inner.map((s) => `! ${s}`) },
    { weight: 1, arbitrary: inner.map((s) => `time ${s}`) },
    { weight: 1, arbitrary: inner.map((s) => `coproc ${s}`) },
    { weight: 1, arbitrary: inner.map((s) => `coproc C { ${s}; }`) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom("", "-i ", "y=1 ", "-- ", "-u x ", "-S "), inner).map(([o, s]) => `env ${o}${s}`) },
    { weight: 1, arbitrary: quotedInner.map((s) => `env -S '${s}'`) },
    { weight: 1, arbitrary: inner.map((s) => `function f { ${s}; }; f`) },
    { weight: 1, arbitrary: inner.map((s) => `f() ( ${s} ); f`) },
    { weight: 1, arbitrary: inner.map((s) => `x=$(${s})`) },
    { weight: 1, arbitrary: inner.map((s) => `export y="\`${s}\`"`) },
    { weight: 1, arbitrary: inner.map((s) => `echo \`${s}\``) },
    { weight: 1, arbitrary: inner.map((s) => `echo $((1 + $(${s})))`) },
    { weight: 1, arbitrary: fc.tuple(stub, inner).map(([p, s]) => `((${p})); (( $(${s}) ))`) },
    { weight: 1, arbitrary: inner.map((s) => `echo $(${s} # )\n)`) },
    { weight: 1, arbitrary: inner.map((s) => `echo "$(${s})"'$(aa)'`) },
    { weight: 1, arbitrary: quotedInner.map((s) => `eval "${s.replaceAll('"', '\\"')}"`) },
    { weight: 1, arbitrary: fc.tuple(stub, stub).map(([a, b]) => `alias ${a}=${b}\n${a} x`) },
    { weight: 1, arbitrary: fc.tuple(stub, word).map(([p, w]) => `builtin command ${p} ${w}`) },
    { weight: 1, arbitrary: fc.tuple(stub, inner).map(([p, s]) => `${p} <<EOF && ${s}\nbody\nEOF`) },
    { weight: 1, arbitrary: fc.tuple(stub, inner).map(([p, s]) => `${p} <<A <<-B\n${s}\nA\n\t${s}\n\tB\n${s}`) },
    { weight: 1, arbitrary: fc.tuple(stub, inner).map(([p, s]) => `echo "$(${p} <<EOF\n${s}\nEOF\n)"`) },
    { weight: 1, arbitrary: fc.tuple(inner, inner).map(([a, b]) => `{ ${a}; } <<EOF\n$(${b})\nEOF`) },
    { weight: 1, arbitrary: inner.map((s) => `for ((i=0; i<1; i++)); do ${s}; done`) },
    { weight: 1, arbitrary: fc.tuple(word, inner).map(([w, s]) => `echo $(case ${w} in x) ${s};; *) aa;; esac)`) },
    { weight: 1, arbitrary: fc.tuple(stub, inner).map(([p, s]) => `echo $(${p} <<EOF\n)\nEOF\n${s})`) },
    { weight: 1, arbitrary: inner.map((s) => `echo \${x//a/$(${s})}`) },
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom("declare", "local", "readonly", "export", "typeset"), inner).map(([d, s]) => `${d} y=$(${s})`),
    },
    { weight: 1, arbitrary: inner.map((s) => `a=(x $(${s}))`) },
    { weight: 1, arbitrary: quotedInner.map((s) => `trap '${s}' EXIT`) },
    // Shells and `.` reading their commands from a pipe (server/src/shell/wrappers.ts).
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom("echo 'S' | bash", "bash <<< 'S'", "sh -s x <<< 'S'", "bash /dev/stdin <<< 'S'", ". /dev/stdin <<< 'S'"),
          quotedInner,
        )
        .map(([form, s]) => form.replace("S", s)),
    },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...EVALUATED_FORMS), quotedInner)
        .map(([form, s]) => form.replaceAll("CODE", `$(${s})`).replaceAll("COMMAND", s)),
    },
    { weight: 1, arbitrary: inner.map((s) => `exec 3>&1; ${s}`) },
    { weight: 1, arbitrary: inner.map((s) => `i\\\nf aa; then ${s}; fi`) },
    { weight: 1, arbitrary: stub.map((p) => `{${p};}`) },
    { weight: 1, arbitrary: inner.map((s) => `echo "$(echo "$(${s})")" "\${x:-"$(${s})"}"`) },
    { weight: 1, arbitrary: inner.map((s) => `echo \${x:-\`${s}\`}`) },
    { weight: 1, arbitrary: fc.tuple(inner, inner).map(([a, b]) => `${a} 2>&1 | ${b}`) },
    { weight: 1, arbitrary: fc.tuple(stub, inner).map(([p, s]) => `${p} <<'EOF' | ${s}\n$(rm x)\nEOF`) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(stub, delimiter, fc.array(fc.oneof(inner, endLine, word), { maxLength: 3 }), endLine, inner)
        .map(([p, d, body, end, after]) => `${p} <<${d}\n${[...body, end].join("\n")}\n${after}`),
    },
  )
}

/** A whole generated command line: statements joined by separators. */
export const commandLine: fc.Arbitrary<string> = fc
  .tuple(statementOf(2), fc.array(fc.tuple(separator, statementOf(2)), { maxLength: 3 }))
  .map(([first, rest]) => rest.reduce((line, [sep, statement]) => `${line}${sep}${statement}`, first))

/**
 * Lines without the bash-only constructs the sh reading refuses outright, so that the dash runs test the
 * POSIX constructs both shells share (a line with one of these would be "not understood" and prove nothing).
 */
export const posixCommandLine: fc.Arbitrary<string> = commandLine.filter(
  (line) => !/\$'|\$"|\[\[|<<<|&>|\|&|<\(|>&|\{a,b\}|\$\{x\/\/|\$\{x:|shopt/.test(line),
)
