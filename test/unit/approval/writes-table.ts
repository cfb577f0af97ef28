import type { WriteRule } from "../../../server/src/shell"

/** The Markdown table docs/command-writes.md shows for WRITE_RULES (a test keeps the two equal). */
export function writesTable(rules: readonly WriteRule[]): string {
  const rows = rules.map((rule) => {
    const program = `\`${rule.program}${rule.subcommands ? ` ${rule.subcommands.join("`, `")}` : ""}\``
    const when = rule.when ? rule.when.map((o) => `\`${o}\``).join(", ") : "always"
    const asks = rule.namedByContent ? "always (the data names the files)" : "like a redirection"
    return `| ${program} | ${when} | ${rule.summary} | ${asks} |`
  })
  return ["| program | when | what it writes | asks |", "| --- | --- | --- | --- |", ...rows].join("\n")
}
