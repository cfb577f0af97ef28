import type { ShellWord } from "./types"

/**
 * The value of one of `options` in `word` (`-o V`, `-oV`, `--opt V`, `--opt=V`), with the option's name: the
 * next word, or the part of `word` after the option (as static as `word` itself). For every reader of a
 * program's code-carrying options (./program-code.ts, ./foreign-code.ts).
 */
export function optionValue(
  options: readonly string[],
  word: ShellWord,
  next: ShellWord | undefined,
): { option: string; word: ShellWord } | undefined {
  const text = word.text
  for (const option of options) {
    if (text === option) return next ? { option, word: next } : undefined
    if (option.startsWith("--") && text.startsWith(`${option}=`))
      return { option, word: { text: text.slice(option.length + 1), static: word.static } }
    // A short option joined to its value (`-IPROG`) or last in a cluster of flags (`-avze ssh`, `-avzessh`).
    const at = /^-[A-Za-z]$/.test(option) && /^-[A-Za-z]/.test(text) && !text.startsWith("--") ? text.indexOf(option[1]!, 1) : -1
    if (at > 0 && /^[A-Za-z]*$/.test(text.slice(1, at))) {
      const rest = text.slice(at + 1)
      if (rest) return { option, word: { text: rest, static: word.static } }
      return next ? { option, word: next } : undefined
    }
  }
  return undefined
}
