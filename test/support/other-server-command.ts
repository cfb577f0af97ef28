/**
 * Another agent-lsp server of the same user, as far as the sandbox is concerned: a separate process that runs
 * one command (argv[3]) in the real OS sandbox of workspace folder argv[2], with HOME argv[4], prints its
 * output and exits with its exit code. Run with `node --import tsx`.
 */
import { spawn } from "node:child_process"
import { sandboxCommand } from "../../server/src/sandbox"
import { placeholdersSettled } from "../../server/src/sandbox/placeholders"

const [folder, line, home] = process.argv.slice(2) as [string, string, string]
const command = sandboxCommand(["/bin/bash", "--noprofile", "--norc", "-c", line], folder, {
  workspaceFolders: [folder],
  home,
  network: { allowedHosts: [] },
})
const child = spawn(command.file, command.args, { cwd: folder, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...command.env } })
let output = ""
child.stdout.on("data", (chunk: Buffer) => (output += chunk))
child.stderr.on("data", (chunk: Buffer) => (output += chunk))
child.on("close", async (code) => {
  command.dispose()
  await placeholdersSettled()
  process.stdout.write(output)
  process.exit(code ?? 1)
})
