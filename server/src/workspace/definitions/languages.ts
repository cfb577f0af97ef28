import { extname } from "node:path"

/**
 * Which tree-sitter grammar (from @vscode/tree-sitter-wasm) parses which file, and which syntax nodes count
 * as definitions in it (node type → the kind shown to the model).
 */

export interface LanguageSpec {
  /** File name in node_modules/@vscode/tree-sitter-wasm/wasm/. */
  grammar: string
  definitions: Record<string, string>
}

const js: Record<string, string> = {
  class_declaration: "class",
  function_declaration: "function",
  generator_function_declaration: "function",
  method_definition: "method",
  variable_declarator: "function", // only when its value is a function or class; see extract.ts
}

const ts: Record<string, string> = {
  ...js,
  abstract_class_declaration: "class",
  interface_declaration: "interface",
  type_alias_declaration: "type",
  enum_declaration: "enum",
  internal_module: "namespace",
  module: "module",
  abstract_method_signature: "method",
  public_field_definition: "method", // only with a function value
}

const LANGUAGES: Record<string, LanguageSpec> = {
  typescript: { grammar: "tree-sitter-typescript.wasm", definitions: ts },
  tsx: { grammar: "tree-sitter-tsx.wasm", definitions: ts },
  javascript: { grammar: "tree-sitter-javascript.wasm", definitions: js },
  python: { grammar: "tree-sitter-python.wasm", definitions: { class_definition: "class", function_definition: "function" } },
  rust: {
    grammar: "tree-sitter-rust.wasm",
    definitions: {
      function_item: "function",
      function_signature_item: "function",
      struct_item: "struct",
      enum_item: "enum",
      union_item: "union",
      trait_item: "trait",
      impl_item: "impl",
      mod_item: "module",
      type_item: "type",
      macro_definition: "macro",
    },
  },
  go: {
    grammar: "tree-sitter-go.wasm",
    definitions: { function_declaration: "function", method_declaration: "method", type_spec: "type" },
  },
  java: {
    grammar: "tree-sitter-java.wasm",
    definitions: {
      class_declaration: "class",
      interface_declaration: "interface",
      enum_declaration: "enum",
      record_declaration: "record",
      annotation_type_declaration: "annotation",
      method_declaration: "method",
      constructor_declaration: "constructor",
    },
  },
  csharp: {
    grammar: "tree-sitter-c-sharp.wasm",
    definitions: {
      namespace_declaration: "namespace",
      class_declaration: "class",
      interface_declaration: "interface",
      struct_declaration: "struct",
      enum_declaration: "enum",
      record_declaration: "record",
      method_declaration: "method",
      constructor_declaration: "constructor",
      property_declaration: "property",
    },
  },
  cpp: {
    grammar: "tree-sitter-cpp.wasm",
    definitions: {
      namespace_definition: "namespace",
      class_specifier: "class",
      struct_specifier: "struct",
      union_specifier: "union",
      enum_specifier: "enum",
      function_definition: "function",
    },
  },
  bash: { grammar: "tree-sitter-bash.wasm", definitions: { function_definition: "function" } },
  php: {
    grammar: "tree-sitter-php.wasm",
    definitions: {
      namespace_definition: "namespace",
      class_declaration: "class",
      interface_declaration: "interface",
      trait_declaration: "trait",
      enum_declaration: "enum",
      function_definition: "function",
      method_declaration: "method",
    },
  },
  ruby: {
    grammar: "tree-sitter-ruby.wasm",
    definitions: { class: "class", module: "module", method: "method", singleton_method: "method" },
  },
  css: { grammar: "tree-sitter-css.wasm", definitions: { rule_set: "rule", keyframes_statement: "keyframes", media_statement: "media" } },
}

const BY_EXTENSION: Record<string, keyof typeof LANGUAGES> = {
  ".ts": "typescript",
  ".mts": "typescript",
  ".cts": "typescript",
  ".tsx": "tsx",
  ".js": "javascript",
  ".jsx": "javascript",
  ".mjs": "javascript",
  ".cjs": "javascript",
  ".py": "python",
  ".pyi": "python",
  ".rs": "rust",
  ".go": "go",
  ".java": "java",
  ".cs": "csharp",
  ".cpp": "cpp",
  ".cc": "cpp",
  ".cxx": "cpp",
  ".hpp": "cpp",
  ".hh": "cpp",
  ".h": "cpp",
  ".c": "cpp",
  ".sh": "bash",
  ".bash": "bash",
  ".php": "php",
  ".rb": "ruby",
  ".css": "css",
}

/** Extensions list_code_definition_names understands, for messages. */
export const SUPPORTED_EXTENSIONS = Object.keys(BY_EXTENSION)

export function languageFor(path: string): { id: string; spec: LanguageSpec } | undefined {
  const id = BY_EXTENSION[extname(path).toLowerCase()]
  return id ? { id, spec: LANGUAGES[id]! } : undefined
}
