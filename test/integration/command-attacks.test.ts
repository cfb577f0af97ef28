import { chmodSync, existsSync, readFileSync } from "node:fs"
import { describe, expect, it, onTestFinished } from "vitest"
import { startSession, toolResultIn } from "../support/session"
import { tempWorkspace } from "../support/temp-workspace"

/**
 * Issue 11: command lines that try to get past the terminal allow list, run by the built server with a real
 * shell. Under allow ["git status", "ls", "echo", "cat"] and autoApprove.write false, every attack must ask
 * (the test client answers "reject"), so each one's victim file survives untouched. Run with the default
 * bash, with terminal.shell "sh", and with SHELL=/usr/bin/zsh in the server's environment (zsh must not be
 * the shell that runs them).
 */

/** Each attack gets the name of its own victim file (V) and must leave it as it was. */
const ATTACKS: [string, (v: string) => string][] = [
  ["function definition", (v) => `ls () { rm ${v}; }; ls`],
  ["function keyword", (v) => `function ls { rm ${v}; }; ls`],
  ["nested backticks", (v) => `echo \`echo \\\`rm ${v}\\\`\``],
  ["arithmetic $[ ]", (v) => `echo $[$(rm ${v})]`],
  ["arithmetic $(( ))", (v) => `echo $((1 + $(rm ${v}) ))`],
  ["escaped space in the program name", (v) => `ls\\ -la; echo > ${v}`],
  ["# inside a word", (v) => `echo a#b; rm ${v}`],
  ["zsh =(cmd)", (v) => `cat =(rm ${v})`],
  ["zsh glob qualifier", (v) => `ls *(e:'rm ${v}':)`],
  ["redirect >", (v) => `ls > ${v}`],
  ["redirect >>", (v) => `echo x >> ${v}`],
  ["redirect >|", (v) => `echo x >| ${v}`],
  ["redirect &>", (v) => `ls &> ${v}`],
  ["redirect &>>", (v) => `ls &>> ${v}`],
  ["redirect <>", (v) => `echo x 1<> ${v}`],
  ["fd duplication to a file >&", (v) => `echo x >& ${v}`],
  ["numbered fd to a file", (v) => `echo x 3> ${v}`],
  ["stderr to a file", (v) => `ls nothing-here 2> ${v}`],
  ["redirect on a group", (v) => `{ echo x; } > ${v}`],
  ["redirect on a loop", (v) => `for i in 1; do echo x; done > ${v}`],
  ["exec redirection", (v) => `exec 3> ${v}`],
  ["here-string substitution", (v) => `cat <<< "$(rm ${v})"`],
  ["here-document substitution", (v) => `cat <<EOF\n$(rm ${v})\nEOF`],
  ["substitution in a redirect target", (v) => `ls > $(rm ${v})`],
  ["process substitution >(…)", (v) => `echo x > >(rm ${v})`],
  ["process substitution <(…)", (v) => `cat <(rm ${v})`],
  ["eval", (v) => `eval "rm ${v}"`],
  ["eval with split words", (v) => `eval echo ';' rm ${v}`],
  ["source", (v) => `source ./${v}.sh`],
  ["dot", (v) => `. ./${v}.sh`],
  ["xargs", (v) => `echo ${v} | xargs rm`],
  ["find -exec", (v) => `find . -name ${v} -exec rm {} \\;`],
  ["find -delete", (v) => `find . -name ${v} -delete`],
  ["env -S", (v) => `env -S "rm ${v}"`],
  ["env with a command", (v) => `env rm ${v}`],
  ["timeout wrapper", (v) => `timeout 5 rm ${v}`],
  ["nice and nohup", (v) => `nice nohup rm ${v}`],
  ["command -p", (v) => `command -p rm ${v}`],
  ["exec", (v) => `exec rm ${v}`],
  ["sh -c", (v) => `sh -c 'rm ${v}'`],
  ["bash -c inside echo's substitution", (v) => `echo "$(bash -c 'rm ${v}')"`],
  ["backslash-newline in the program name", (v) => `r\\\nm ${v}`],
  ["backslash-newline before a separator", (v) => `ls \\\n; rm ${v}`],
  ["ANSI-C quoted program", (v) => `$'\\x72\\x6d' ${v}`],
  ["quoted program pieces", (v) => `'r'"m" ${v}`],
  // Issue 22: where bash (or dash) and the parser read a line differently.
  ["ANSI-C string hiding rm from the parser or from dash", (v) => `echo $'a\\' ; rm ${v} ; echo \\'`],
  ["here-document with a partly quoted delimiter", (v) => `cat <<E"O"F\nx\nEOF\nrm ${v}\nE"O"F`],
  ["here-document with an ANSI-C delimiter", (v) => `cat <<$'EOF'\nx\nEOF\nrm ${v}\n$'EOF'`],
  ["here-document with a continuation on its delimiter line", (v) => `cat <<EOF \\\n&& ls\nrm ${v}\nEOF`],
  ["escaped tab before #", (v) => `echo a\\\t#b; rm ${v}`],
  ["alias", (v) => `shopt -s expand_aliases; alias ls='rm ${v}'\nls`],
  ["default value with a substitution", (v) => `echo \${NOT_SET_X:-$(rm ${v})}`],
  ["alias on the next line", (v) => `alias ls='rm ${v}'\nls`],
  ["semicolon", (v) => `ls; rm ${v}`],
  ["and", (v) => `ls && rm ${v}`],
  ["or", (v) => `ls nothing-here || rm ${v}`],
  ["pipe with stderr |&", (v) => `ls |& rm ${v}`],
  ["background &", (v) => `rm ${v} & ls`],
  ["newline", (v) => `ls\nrm ${v}`],
  ["subshell", (v) => `(ls; rm ${v})`],
  ["negation", (v) => `! rm ${v}`],
  ["coproc", (v) => `coproc rm ${v}`],
  ["case", (v) => `case x in x) rm ${v};; esac`],
  ["for loop", (v) => `for f in ${v}; do rm $f; done`],
  ["while loop", (v) => `while true; do rm ${v}; break; done`],
  ["if", (v) => `if ls; then rm ${v}; fi`],
  ["variable as program", (v) => `X=rm; $X ${v}`],
  ["substitution as program", (v) => `$(echo rm) ${v}`],
  ["PATH to the workspace", (v) => `PATH=./${v}.bin:$PATH ls`],
  ["arithmetic on a set variable", (v) => `x='a[$(rm ${v})]'; echo $((x))`],
  ["indirect expansion", (v) => `y='a[$(rm ${v})]'; echo \${!y}`],
  ["trap", (v) => `trap 'rm ${v}' EXIT; ls`],
  ["invalid syntax", (v) => `ls (; rm ${v}`],
  ["unterminated quote", (v) => `ls 'x; rm ${v}`],
  ["unterminated if", (v) => `if ls; then rm ${v}`],
  ["redirect before the program", (v) => `>${v} ls`],
  ["fd redirect before the program", (v) => `2>${v} ls nothing-here`],
  ["redirect without spaces", (v) => `echo x>${v}`],
  ["quoted redirect target", (v) => `ls >"${v}"`],
  ["ANSI-C redirect target", (v) => `ls >$'${v}'`],
  [
    "backslash-newline before a redirect",
    (v) => `ls \
> ${v}`,
  ],
  [
    "here-document into a file",
    (v) => `cat > ${v} <<EOF
x
EOF`,
  ],
  ["redirect after a pipe", (v) => `ls | cat > ${v}`],
  ["redirect in a subshell of a pipe", (v) => `ls | (cat > ${v})`],
  ["redirect inside a group", (v) => `{ ls > ${v}; }`],
  ["exec then a command", (v) => `exec > ${v}; ls`],
  ["second redirect after /dev/null", (v) => `echo x >/dev/null >${v}`],
  ["pipe into sh", (v) => `echo "rm ${v}" | sh`],
  ["pipe into bash", (v) => `echo "rm ${v}" | bash`],
  ["source a process substitution", (v) => `. <(echo rm ${v})`],
  [
    "aliases enabled in bash",
    (v) => `shopt -s expand_aliases; alias ls='rm ${v}'
ls`,
  ],
  [
    "heredoc inside a substitution",
    (v) => `echo "$(cat <<EOF
$(rm ${v})
EOF
)"`,
  ],
  ["very long line", (v) => `${Array.from({ length: 3000 }, () => "ls").join("; ")}; rm ${v}`],
  ["deep nesting", (v) => `${"echo $(".repeat(60)}rm ${v}${")".repeat(60)}`],
]

/** Lines that must run without asking under the same allow list. */
const SAFE: [string, string, RegExp][] = [
  ["ls", "ls", /victim-0/],
  ["ls -la | cat", "ls -la | cat", /victim-0\.sh/],
  ["echo with redirections to /dev/null", "echo hi 2>&1 >/dev/null; echo shown", /shown/],
  ["quoted substitution text", "echo '$(rm victim-0)'", /\$\(rm victim-0\)/],
  ["git status", "git status", /./],
  ["not zsh", 'echo "[$ZSH_VERSION]"', /\[\]/],
  ["bash or sh", 'echo "<${BASH_VERSION:+bash}>"', /<(bash)?>/],
]

async function runTable(options: { initializationOptions?: object; env?: Record<string, string> }) {
  // Each victim has a script that removes it (for source and .) and an `ls` that does (for PATH tricks).
  const files: Record<string, string> = {}
  ATTACKS.forEach((_, i) => {
    files[`victim-${i}`] = `keep ${i}\n`
    files[`victim-${i}.sh`] = `rm victim-${i}\n`
    files[`victim-${i}.bin/ls`] = `#!/bin/sh\nrm victim-${i}\n`
  })
  const ws = await tempWorkspace(files)
  ATTACKS.forEach((_, i) => chmodSync(ws.path(`victim-${i}.bin/ls`), 0o755))
  onTestFinished(() => ws.cleanup())
  const calls = [
    ...ATTACKS.map(([, make], i) => ({ id: `toolu_attack_${i}`, command: make(`victim-${i}`) })),
    ...SAFE.map(([, command], i) => ({ id: `toolu_safe_${i}`, command })),
  ]
  const { server, api } = await startSession(
    [
      ...calls.map((c) => ({ toolCalls: [{ id: c.id, name: "execute_command", input: { command: c.command } }] })),
      { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
    ],
    {
      workspace: ws.root,
      env: options.env,
      initializationOptions: {
        agent: {
          terminal: { allow: ["git status", "ls", "echo", "cat"] },
          autoApprove: { write: false },
          ...(options.initializationOptions ?? {}),
        },
      },
    },
  )
  const asked = new Set<string>()
  server.handlers.requestApproval = (params: any) => {
    asked.add(params.callId)
    return { optionId: "reject" }
  }
  const { taskId } = await server.request("agent/newTask", { text: "Attack" })
  await server.waitForStatus(taskId, "completed", 120_000)
  return { ws, api, asked, calls }
}

function expectEveryAttackAsked(run: Awaited<ReturnType<typeof runTable>>) {
  const notAsked = ATTACKS.filter((_, i) => !run.asked.has(`toolu_attack_${i}`)).map(([name]) => name)
  expect(notAsked).toEqual([])
  const damaged = ATTACKS.filter(
    (_, i) => !existsSync(run.ws.path(`victim-${i}`)) || readFileSync(run.ws.path(`victim-${i}`), "utf8") !== `keep ${i}\n`,
  ).map(([name]) => name)
  expect(damaged).toEqual([])
}

function safeOutputs(run: Awaited<ReturnType<typeof runTable>>): string[] {
  return SAFE.map((_, i) => {
    const id = `toolu_safe_${i}`
    const request = run.api.requests.find((r) => toolResultIn(r, id))
    const result = toolResultIn(request, id)
    return typeof result?.content === "string" ? result.content : (result?.content ?? []).map((c: any) => c.text).join("\n")
  })
}

function expectSafeRanUnasked(run: Awaited<ReturnType<typeof runTable>>) {
  expect(SAFE.filter((_, i) => run.asked.has(`toolu_safe_${i}`)).map(([name]) => name)).toEqual([])
  const outputs = safeOutputs(run)
  SAFE.forEach(([name, , expected], i) => expect(outputs[i], name).toMatch(expected))
}

describe("command attacks against the built server", () => {
  it("with the default bash, every attack asks and every victim survives; safe lines run unasked", async () => {
    const run = await runTable({})
    expectEveryAttackAsked(run)
    expectSafeRanUnasked(run)
    expect(safeOutputs(run).join("\n")).toMatch(/<bash>/)
  }, 180_000)

  it("with /bin/sh (terminal.shell), the same", async () => {
    const run = await runTable({ initializationOptions: { terminal: { allow: ["git status", "ls", "echo", "cat"], shell: "sh" } } })
    expectEveryAttackAsked(run)
    expectSafeRanUnasked(run)
    expect(safeOutputs(run).join("\n")).toMatch(/<>/)
  }, 180_000)

  it("with SHELL=/usr/bin/zsh in the server's environment, zsh does not run the commands", async () => {
    const run = await runTable({ env: { SHELL: "/usr/bin/zsh" } })
    expectEveryAttackAsked(run)
    expectSafeRanUnasked(run) // includes echo "[$ZSH_VERSION]" printing "[]"
    expect(safeOutputs(run).join("\n")).toMatch(/<bash>/)
  }, 180_000)
})

describe("redirections and allow-always through the built server", () => {
  it("asks before a redirection writes a protected file (also through a symlink) even with autoApprove.write; writes elsewhere run", async () => {
    const ws = await tempWorkspace({ ".git/config": "[core]\n", "notes.txt": "n\n" })
    onTestFinished(() => ws.cleanup())
    const { symlinkSync } = await import("node:fs")
    symlinkSync(ws.path(".git/config"), ws.path("innocent.txt"))
    const lines = ["ls > .git/config", "echo x >> innocent.txt", "echo hi > out.txt"]
    const { server } = await startSession(
      [
        ...lines.map((command, i) => ({ toolCalls: [{ id: `toolu_${i}`, name: "execute_command", input: { command } }] })),
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { terminal: { allow: ["ls", "echo"] }, autoApprove: { write: true } } } },
    )
    const asked: any[] = []
    server.handlers.requestApproval = (params: any) => {
      asked.push(params)
      return { optionId: "reject" }
    }
    const { taskId } = await server.request("agent/newTask", { text: "Write" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(asked.map((a) => a.callId)).toEqual(["toolu_0", "toolu_1"])
    expect(readFileSync(ws.path(".git/config"), "utf8")).toBe("[core]\n")
    expect(readFileSync(ws.path("out.txt"), "utf8")).toBe("hi\n")
  }, 60_000)

  it("'allow always' on an interpreter remembers the whole command, and stays on offer", async () => {
    const ws = await tempWorkspace({ "a.js": "console.log('a ran')\n", "b.js": "require('fs').writeFileSync('b-ran', '')\n" })
    onTestFinished(() => ws.cleanup())
    const lines = ["node a.js", "node a.js", "node b.js"]
    const { server, api } = await startSession(
      [
        ...lines.map((command, i) => ({ toolCalls: [{ id: `toolu_${i}`, name: "execute_command", input: { command } }] })),
        { toolCalls: [{ name: "attempt_completion", input: { result: "done" } }] },
      ],
      { workspace: ws.root, initializationOptions: { agent: { terminal: { allow: ["ls"] } } } },
    )
    const asked: any[] = []
    server.handlers.requestApproval = (params: any) => {
      asked.push(params)
      const always = params.options.find((o: any) => o.kind === "allow_always")
      return { optionId: params.callId === "toolu_0" ? always.optionId : "reject" }
    }
    const { taskId } = await server.request("agent/newTask", { text: "Run" })
    await server.waitForStatus(taskId, "completed", 30_000)
    expect(asked.map((a) => a.callId)).toEqual(["toolu_0", "toolu_2"])
    expect(asked[0].options.find((o: any) => o.kind === "allow_always").label).toMatch(/"node a\.js"/)
    expect(asked[1].options.find((o: any) => o.kind === "allow_always").label).toMatch(/"node b\.js"/)
    expect(JSON.stringify(toolResultIn(api.requests[2], "toolu_1"))).toMatch(/a ran/)
    expect(existsSync(ws.path("b-ran"))).toBe(false)
  }, 60_000)
})
