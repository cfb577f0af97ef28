/**
 * One example call per tool for docs/tools.md, as a model would make it. Each is parsed with the tool's
 * own zod params by test/unit/docs/generated-docs.test.ts, so an example that no longer fits fails there.
 * A tool missing here gets an example made from its schema; add a real one when you add a tool.
 */
export const TOOL_EXAMPLES: Record<string, unknown> = {
  read_file: { path: "src/server.ts", offset: 40, limit: 80 },
  list_files: { path: "src", recursive: true },
  search_files: { path: "src", regex: "createServer\\(", file_pattern: "*.ts" },
  list_code_definition_names: { path: "src/server.ts" },
  codebase_search: { query: "where are API keys redacted from logs", path: "server/src" },
  write_to_file: { path: "docs/notes.md", content: "# Notes\n\nFirst draft.\n" },
  apply_diff: {
    path: "src/app.ts",
    diff: "<<<<<<< SEARCH\n:start_line:12\n-------\nconst port = 3000\n=======\nconst port = Number(process.env.PORT ?? 3000)\n>>>>>>> REPLACE",
  },
  edit: { file_path: "src/app.ts", old_string: "const port = 3000", new_string: "const port = 8080" },
  search_replace: { file_path: "src/app.ts", old_string: "const port = 3000", new_string: "const port = 8080" },
  edit_file: { file_path: "src/app.ts", old_string: "console.log(", new_string: "logger.info(", expected_replacements: 2 },
  insert_content: { path: "src/app.ts", line: 1, content: 'import { logger } from "./logger"\n' },
  apply_patch: {
    patch:
      "*** Begin Patch\n*** Update File: src/app.py\n@@ def greet():\n-    print('Hi')\n+    print('Hello')\n*** Add File: src/VERSION\n+1.0.0\n*** End Patch",
  },
  execute_command: { command: "npm test -- --run src/app.test.ts", cwd: "." },
  read_command_output: { artifact_id: "cmd-1706119234567-a1b2c3.txt", search: "FAIL" },
  browser_action: { action: "launch", url: "http://localhost:3000" },
  use_mcp_tool: { server_name: "everything", tool_name: "echo", arguments: { message: "hello" } },
  access_mcp_resource: { server_name: "everything", uri: "test://static/resource/1" },
  ask_followup_question: {
    question: "Which test runner should the new tests use?",
    follow_up: [{ text: "vitest, like the rest of the project" }, { text: "node:test, without dependencies" }],
  },
  attempt_completion: { result: "Added a --verbose flag to the CLI; npm test passes." },
  switch_mode: { mode_slug: "code", reason: "The plan is agreed; time to implement it." },
  new_task: { mode: "code", message: "Write unit tests for src/parse.ts covering empty input and unicode." },
  update_todo_list: { todos: "[x] Read the CLI code\n[-] Add the --verbose flag\n[ ] Update the README" },
  fetch_instructions: { task: "create_mode" },
  skill: { skill: "release-notes", args: "v1.2.0" },
  run_slash_command: { command: "init" },
}
