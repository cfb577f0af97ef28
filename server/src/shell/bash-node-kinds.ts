/**
 * What the bash walker (bash-walker.ts) knows of tree-sitter-bash's node types and of bash's words, as data:
 * which nodes only hold others, which run nothing, which commands assign variables, which words are reserved.
 */

/** Nodes whose children are statements or expressions to read in turn, with nothing of their own to check. */
export const CONTAINERS = new Set([
  "program",
  "list",
  "pipeline",
  "subshell",
  "compound_statement",
  "do_group",
  "negated_command",
  "if_statement",
  "elif_clause",
  "else_clause",
  "while_statement",
  "case_statement",
  "case_item",
  "test_command",
  "parenthesized_expression",
  "binary_expression",
  "unary_expression",
  "ternary_expression",
  "postfix_expression",
  "concatenation",
  "string",
  "array",
  "heredoc_body",
  "heredoc_redirect",
  "herestring_redirect",
  "variable_assignments",
  "process_substitution",
  "translated_string",
  "brace_expression",
])
/** Leaves: words and names that run nothing by themselves. */
export const LEAVES = new Set([
  "word",
  "raw_string",
  "ansi_c_string",
  "number",
  "string_content",
  "heredoc_start",
  "heredoc_end",
  "heredoc_content",
  "test_operator",
  "regex",
  "extglob_pattern",
  "file_descriptor",
  "special_variable_name",
  "variable_name",
  "simple_expansion",
])
/** Commands that set shell variables from data (whose value bash may later evaluate as arithmetic code). */
export const ASSIGNING = new Set([
  "read",
  "mapfile",
  "readarray",
  "printf",
  "getopts",
  "declare",
  "typeset",
  "local",
  "export",
  "readonly",
  "let",
  // `set -- a b` sets the positional parameters.
  "set",
])
/** Numeric comparisons of a test command, whose operands bash may evaluate as arithmetic (see ASSIGNING). */
export const ARITHMETIC_TEST = /^-(eq|ne|lt|le|gt|ge)$/
/** Reserved words: tree-sitter recovers from misplaced ones (`sudo if x; then rm y; fi`) by reading them as program names. */
export const RESERVED = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "case",
  "esac",
  "while",
  "until",
  "for",
  "in",
  "function",
  "select",
  "{",
  "}",
  "[[",
  "]]",
  "!",
])
