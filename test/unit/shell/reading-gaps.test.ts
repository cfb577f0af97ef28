import { beforeAll, describe, expect, it } from "vitest"
import { decideApproval, decideCommand, TaskApprovals } from "../../../server/src/approval"
import { defaultSettings } from "../../../server/src/config/schema"
import { parseCommandLine } from "../../../server/src/shell"
import { loadShellParser } from "../../../server/src/workspace/shell-grammars"

beforeAll(async () => {
  await loadShellParser()
})

const reasons = (text: string, dialect: "bash" | "sh" = "bash") =>
  parseCommandLine(text, dialect)
    .unknown.map((u) => u.reason)
    .join(" | ")

describe("lines the shell may read differently from the parser ask", () => {
  it("never runs an ANSI-C-string line hiding touch and rm under allow echo / deny rm", () => {
    for (const line of ["echo $'a\\' ; touch t ; rm x ; echo \\'", "echo $'\\'' ; touch t; rm x", "echo $'a\\'b'; touch t; rm x #'"]) {
      expect(decideCommand(line, ["echo"], ["rm"]).decision, line).not.toBe("allow")
    }
  })

  it.each([
    ['partly quoted E"O"F', 'cat <<E"O"F\nx\nEOF\nrm a\nE"O"F'],
    ["partly quoted E'O'F", "cat <<E'O'F\nx\nEOF\nrm a\nE'O'F"],
    ["an ANSI-C delimiter", "cat <<$'EOF'\nx\nEOF\nrm a\n$'EOF'"],
    ["a locale-string delimiter", 'cat <<$"EOF"\nx\nEOF\nrm a\n$"EOF"'],
    ["an escaped delimiter inside", "cat <<E\\OF\nx\nEOF\nrm a\nE\\OF"],
    ["a backslash-newline on the delimiter line", "cat <<EOF \\\n&& ls\nrm a\nEOF"],
    ["a backslash-newline in an unquoted body", "cat <<EOF\nx\\\nEOF\nrm a\nEOF"],
  ])("asks for a here-document with %s", (_, line) => {
    expect(reasons(line)).toMatch(/here-document/)
    expect(decideCommand(line, ["cat", "ls", "echo"], []).decision).toBe("ask")
  })

  it("reads plain and fully quoted here-document delimiters as the shell does", () => {
    for (const line of [
      "cat <<EOF\nrm a\nEOF\nls",
      "cat <<'EOF'\nrm a\nEOF\nls",
      'cat <<"EOF"\nrm a\nEOF\nls',
      "cat <<-EOF\n\trm a\n\tEOF\nls",
    ]) {
      expect(decideCommand(line, ["cat", "ls"], []).decision, line).toBe("allow")
    }
  })

  it("asks for an escaped tab or space before #, which the shell keeps in the word", () => {
    expect(reasons("echo a\\\t#b; rm x")).toMatch(/escaped blank before #/)
    expect(decideCommand("echo a\\\t#b; rm x", ["echo"], []).decision).toBe("ask")
    expect(decideCommand("echo a\\ #b; rm x", ["echo"], []).decision).toBe("ask")
  })

  it("asks for an escaped blank at a word's edge, which the parser drops", () => {
    expect(reasons('x "a"\\  >& f')).toMatch(/skipped between words/)
    expect(decideCommand("echo \\ a", ["echo"], []).decision).toBe("ask")
  })

  it("asks for an alias definition, whose name may later run another program", () => {
    const line = "shopt -s expand_aliases; alias ls=rm\nls x"
    expect(reasons(line)).toMatch(/alias/)
    expect(decideCommand(line, ["*"], []).decision).toBe("ask")
  })

  it("asks for an ANSI-C string with escapes but still matches the deny list against its value", () => {
    expect(reasons("echo $'a\\nb'")).toMatch(/ANSI-C string/)
    expect(decideCommand("$'\\x72\\x6d' x", ["*"], ["rm"]).decision).toBe("deny")
    expect(decideCommand("echo $'plain'", ["echo"], []).decision).toBe("allow")
  })
})

describe("with the sh setting, bash-only constructs are not understood", () => {
  it.each([
    ["an ANSI-C string", "echo $'a'"],
    ["a locale string", 'echo $"a"'],
    ["a [[ ]] test", "[[ -f x ]] && echo y"],
    ["an array", "a=(1 2); echo ok"],
    ["a process substitution", "cat <(ls)"],
    ["a brace expansion", "echo {a,b}"],
    ["a sequence brace expansion", "echo {1..3}"],
    ["a here-string", "cat <<< x"],
    ["the &> redirection", "ls &> /dev/null"],
    ["the function keyword", "function f { ls; }"],
    ["a select loop", "select x in a; do ls; done"],
    ["an arithmetic command", "((x = 1))"],
    ["an arithmetic for loop", "for ((i=0;i<1;i++)); do ls; done"],
    ["a bash-only expansion", "echo ${x//a/b}"],
    ["a substring expansion", "echo ${x:1}"],
    ["the |& pipe", "ls |& cat"],
    ["a redirection >& to a file", "ls >& f"],
  ])("asks for %s", (_, line) => {
    expect(reasons(line, "sh")).toMatch(/which \/bin\/sh reads differently/)
    expect(reasons(line, "bash")).not.toMatch(/which \/bin\/sh reads differently/)
  })

  it("reads POSIX lines under sh as under bash", () => {
    for (const line of ["ls -la | cat", "echo ${x:-a} ${#x} ${x%b}", "cat <<EOF\nx\nEOF", "ls 2>&1 >/dev/null", "f() { ls; }"]) {
      expect(reasons(line, "sh"), line).not.toMatch(/which \/bin\/sh reads differently/)
    }
  })
})

describe("the policy reads a line in the dialect of the shell that will run it", () => {
  const decide = (command: string, dialect: "bash" | "sh", askReasons?: string[]) => {
    const settings = defaultSettings()
    settings.terminal.allow = ["echo"]
    settings.terminal.deny = ["rm"]
    return decideApproval(
      "execute_command",
      { kind: "command", command, cwd: ".", absoluteCwd: "/ws", dialect, ...(askReasons ? { askReasons } : {}) },
      { settings, workspaceFolders: ["/ws"], remembered: new TaskApprovals(), protectedDirs: [], sandbox: { available: true } },
    )
  }

  it("allows a bash-only line under bash and asks for it under sh", () => {
    expect(decide("echo $'plain' {a,b}", "bash").decision).toBe("allow")
    const sh = decide("echo $'plain' {a,b}", "sh")
    expect(sh.decision).toBe("ask")
    expect(sh.reason).toMatch(/ANSI-C string.*which \/bin\/sh reads differently/)
  })

  it("asks, saying why, when bash is missing", () => {
    const gap = "bash is not installed at /bin/bash, so the line runs with /bin/sh"
    const decision = decide("echo hi", "sh", [gap])
    expect(decision.decision).toBe("ask")
    expect(decision.reason).toContain(gap)
  })
})

describe("backticks and continuations the parser ends elsewhere", () => {
  it("asks when a # inside backticks made the parser swallow the rest of the line", () => {
    expect(reasons("echo `ls #`; rm x")).toMatch(/backtick/)
    expect(decideCommand("echo `ls #`; rm x", ["echo", "ls"], []).decision).toBe("ask")
  })

  it("asks when a continuation turns the program name into an assignment", () => {
    expect(reasons("EOF\\\ny=1 x")).toMatch(/read as an assignment/)
    expect(decideCommand("EOF\\\ny=1 x", ["*"], []).decision).toBe("ask")
  })
})

describe("a command after a comment", () => {
  it("asks when the parser joins the next line's escaped word to the commented command", () => {
    expect(reasons("echo a # c\n\\rm x")).toMatch(/line break inside a word/)
    expect(decideCommand("echo a # c\n\\rm x", ["echo"], []).decision).not.toBe("allow")
  })
})

describe("here-document bodies and redirections inside tests", () => {
  it("asks for backticks in an unquoted here-document, which the shell runs and the parser does not read", () => {
    expect(reasons("cat <<EOF\n`rm x`\nEOF")).toMatch(/backtick substitution inside an unquoted here-document/)
    expect(decideCommand("cat <<'EOF'\n`rm x`\nEOF", ["cat"], []).decision).toBe("allow")
  })

  it("asks for a number before a redirection after a continuation inside [[ $(…) ]]", () => {
    expect(reasons('[[ -n $(ls "b"\\\n 2>/dev/null) ]]')).toMatch(/file descriptor/)
  })
})

describe("lines the second differential session found", () => {
  it("asks for a carriage return, which the parser skips as a blank and the shell keeps in the word", () => {
    expect(reasons("echo ok\r; rm x")).toMatch(/skipped/)
    expect(decideCommand("ls x\r", ["ls"], []).decision).toBe("ask")
    // A no-break space is part of the word for both.
    expect(parseCommandLine("echo a\u00a0b").commands[0]?.words.map((w) => w.text)).toEqual(["echo", "a\u00a0b"])
  })

  it("asks for a backtick substitution inside an expansion, which the parser reads as plain text", () => {
    expect(reasons("echo ${x:-`rm y`}")).toMatch(/backtick substitution the parser read as plain text/)
    expect(decideCommand("echo ${x:-`rm y`}", ["echo"], ["rm"]).decision).not.toBe("allow")
    expect(decideCommand("echo 'a`b' \"c\\`d\"", ["echo"], []).decision).toBe("allow")
  })

  it("asks when two here-documents start on one line, whose bodies the shell hands out in order", () => {
    const line = "cat <<'EOF' | { cat; } <<EOF\n$(touch g)\nEOF\n$(rm x)\nEOF"
    expect(reasons(line)).toMatch(/several here-documents/)
    expect(decideCommand(line, ["cat", "touch"], []).decision).toBe("ask")
  })

  it("asks when a here-document's end line holds more than the delimiter, which the shell does not take as the end", () => {
    for (const line of [
      "cat <<EOF\n\tEOF\nrm x",
      'echo "$(cat <<EOF\nEOF <<X | ls\n$(rm x)\nEOF\nX\n)"',
      "echo \"$(cat <<'EOF'\nx\nEOF)\"\nrm y",
    ])
      expect(reasons(line), line).toMatch(/end line holds more than its delimiter/)
    expect(decideCommand("git commit -m \"$(cat <<'EOF'\nmsg\nEOF\n)\"", ["git commit", "cat"], []).decision).toBe("allow")
  })

  it("asks for an alias defined through command or builtin, which dash expands on the next line", () => {
    expect(reasons("command alias x=rm\nx y", "sh")).toMatch(/defines an alias/)
    expect(reasons("builtin alias x=rm\nx y")).toMatch(/defines an alias/)
  })

  it("reads env -S strings of plain words as env splits them, and asks for any other", () => {
    const argvs = (line: string) => parseCommandLine(line).commands.map((c) => c.words.map((w) => w.text).join(" "))
    expect(argvs("env -S 'y=1 rm -rf x' z")).toContain("rm -rf x z")
    expect(parseCommandLine("env -S 'y=1 rm -rf x' z").commands.find((c) => c.words[0]?.text === "rm")?.assignments).toEqual(["y=1"])
    expect(reasons("env -S 'x >> g'")).toMatch(/env -S splits/)
    expect(reasons("env -S 'a; rm x'")).toMatch(/env -S splits/)
  })

  it("reads assignments after time, coproc and env -- as assignments, not as the program", () => {
    const programs = (line: string) => parseCommandLine(line).commands.map((c) => c.words[0]?.text)
    expect(programs("time x=1 rm y")).toContain("rm")
    expect(programs("coproc x=1 rm y")).toContain("rm")
    expect(programs("env -- y=1 rm z")).toContain("rm")
  })
})
