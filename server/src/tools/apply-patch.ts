import { z } from "zod"
import { applyPatchHunks } from "../edits/apply-patch-hunks"
import { parsePatch, patchPaths, PATCH_FORMAT, type PatchOperation } from "../edits/apply-patch-parse"
import { fileDiff, type FileDiff } from "../edits/unified-diff"
import { deleteFile } from "../workspace/atomic-write"
import { changedSinceApproval } from "../workspace/guard"
import type { ToolContext } from "./context"
import { changeLine, commitEdit, userEditNote } from "./edit-support/commit"
import { editFailure, isFailure, loadEditTarget, type EditTarget } from "./edit-support/target"
import { defineTool, textResult, type ToolResult } from "./tool"

const description = `Apply a patch that adds, deletes, updates or renames files, in this format:
${PATCH_FORMAT}
Add File: every following line is +content. Update File: optionally "*** Move to: new/path", then hunks; each hunk starts with @@ (optionally followed by a line such as a function signature to find first), then lines starting with " " (context), "-" (remove) or "+" (add). Show 3 lines of context around each change. A hunk with only "+" lines goes at the end of the file, or right after its @@ line when it has one. Paths are relative to the workspace root.
Safer than Codex's apply_patch on purpose: the patch applies whole or not at all (every operation is checked before any file is written); Add File and Move to refuse an existing file (Update it, or Delete it first); paths outside the workspace are refused, and a change to a protected path (.git, .roo, editor and agent settings) always asks the user; one patch per call (nothing may follow "*** End Patch").`

/** One file step of a prepared patch. */
type Step =
  | { op: "write"; target: EditTarget; text: string; label: string; from?: EditTarget; diff: FileDiff }
  | { op: "delete"; target: EditTarget; label: string; diff: FileDiff }

export const applyPatch = defineTool({
  name: "apply_patch",
  group: "edit",
  params: z.object({
    patch: z.string().describe("The complete patch, from '*** Begin Patch' to '*** End Patch'"),
  }),
  description,
  available: () => true,
  touchedPaths: ({ patch }) => {
    const parsed = parsePatch(patch)
    return parsed.ok ? patchPaths(parsed.operations) : []
  },
  async prepare({ patch }, ctx) {
    const parsed = parsePatch(patch)
    if (!parsed.ok) return { result: editFailure(`apply_patch could not read the patch: ${parsed.error}`) }
    const steps: Step[] = []
    for (const operation of parsed.operations) {
      const step = await planStep(ctx, operation)
      if ("failure" in step)
        return { result: { ...step.failure, content: [{ type: "text", text: `${textOf(step.failure)}\nNo file was changed.` }] } }
      steps.push(step)
    }
    // Each step is planned against the files as they are now, so one file may appear only once: by its real
    // path, since a link and its target are one file (updating both would write the second over the first).
    const seen = new Map<string, string>()
    for (const step of steps)
      for (const t of step.op === "write" && step.from && step.from.absPath !== step.target.absPath
        ? [step.from, step.target]
        : [step.target]) {
        const earlier = seen.get(t.realPath)
        if (earlier !== undefined)
          return {
            result: editFailure(
              `The patch touches ${t.shown} more than once${earlier === t.shown ? "" : ` (as ${earlier} too: one is a symbolic link to the other)`}. Put all changes to a file in one "*** Update File:" section (several @@ hunks are fine). No file was changed.`,
            ),
          }
        seen.set(t.realPath, t.shown)
      }
    const single = steps.length === 1 && steps[0]!.op === "write" && !steps[0]!.from ? steps[0] : undefined
    return {
      preview: {
        subject: {
          kind: "write",
          paths: [...new Set(steps.flatMap((s) => (s.op === "write" && s.from ? [s.from.shown, s.target.shown] : [s.target.shown])))],
          realPaths: [
            ...new Set(steps.flatMap((s) => (s.op === "write" && s.from ? [s.from.realPath, s.target.realPath] : [s.target.realPath]))),
          ],
        },
        title: `Apply patch (${steps.length} file${steps.length === 1 ? "" : "s"})`,
        detail: steps.map((s) => s.label).join("\n"),
        diff: steps.map((s) => s.diff.diff).join(""),
        ...(single?.op === "write" ? { proposedText: single.text } : {}),
      },
      run: async (options) => {
        const edited = single && options?.editedText
        const done: string[] = []
        for (const step of steps) {
          const outcome = await runStep(ctx, step, step === single && edited !== undefined ? edited : undefined)
          if (typeof outcome !== "string") {
            const before = done.length ? `Applied before the failure:\n${done.join("\n")}\n` : "No file was changed.\n"
            const rest = steps.slice(steps.indexOf(step) + 1)
            return editFailure(
              `${outcome.failure}\n${before}${rest.length ? `Not attempted: ${rest.map((s) => s.target.shown).join(", ")}.` : ""}`,
              `apply_patch failed at ${step.target.shown}`,
            )
          }
          done.push(outcome)
        }
        const note =
          single?.op === "write" && edited !== undefined && edited !== single.text
            ? `\n${userEditNote(single.target.shown, single.text, edited)}`
            : ""
        return textResult(done.join("\n") + note, `apply_patch: ${steps.length} file${steps.length === 1 ? "" : "s"} changed`)
      },
    }
  },
})

async function planStep(ctx: ToolContext, operation: PatchOperation): Promise<Step | { failure: ToolResult }> {
  if (operation.type === "add") {
    const target = await loadEditTarget(ctx, operation.path, false)
    if (isFailure(target)) return target
    if (target.before !== undefined)
      return {
        failure: editFailure(
          `*** Add File: ${target.shown} already exists. Use "*** Update File:" to change it, or "*** Delete File:" first.`,
        ),
      }
    return {
      op: "write",
      target,
      text: operation.content,
      label: `add ${target.shown}`,
      diff: fileDiff(target.shown, undefined, operation.content),
    }
  }
  const target = await loadEditTarget(ctx, operation.path, true)
  if (isFailure(target)) return target
  if (operation.type === "delete")
    return { op: "delete", target, label: `delete ${target.shown}`, diff: fileDiff(target.shown, target.before, undefined) }
  const applied = operation.hunks.length
    ? applyPatchHunks(target.shown, target.before!, operation.hunks)
    : { ok: true as const, text: target.before! }
  if (!applied.ok) return { failure: editFailure(applied.error) }
  if (!operation.moveTo)
    return {
      op: "write",
      target,
      text: applied.text,
      label: `update ${target.shown}`,
      diff: fileDiff(target.shown, target.before, applied.text),
    }
  const destination = await loadEditTarget(ctx, operation.moveTo, false)
  if (isFailure(destination)) return destination
  if (destination.before !== undefined && destination.absPath !== target.absPath)
    return { failure: editFailure(`*** Move to: ${destination.shown} already exists. Move to a new path, or delete that file first.`) }
  return {
    op: "write",
    target: destination,
    text: applied.text,
    from: target,
    label: `move ${target.shown} → ${destination.shown}`,
    diff: fileDiff(destination.shown, target.before, applied.text),
  }
}

/** Runs one step: the result line for the model, or why it failed. */
async function runStep(ctx: ToolContext, step: Step, editedText: string | undefined): Promise<string | { failure: string }> {
  if (step.op === "delete") {
    const swapped = changedSinceApproval(ctx, step.target.absPath, step.target.realPath)
    if (swapped) return { failure: swapped }
    const { existed } = await deleteFile(step.target.absPath)
    const open = ctx.editor.openDocument(step.target.absPath) ? " It is still open in the editor: the buffer can be closed." : ""
    return existed ? `Deleted ${step.target.shown}.${open}` : `${step.target.shown} was already gone.`
  }
  const text = editedText ?? step.text
  const outcome = await commitEdit(ctx, step.target, text, "apply_patch")
  if (!outcome.ok) return { failure: outcome.message }
  let moved = ""
  if (step.from && step.from.absPath !== step.target.absPath) {
    const swapped = changedSinceApproval(ctx, step.from.absPath, step.from.realPath)
    if (swapped) return { failure: `${step.target.shown} was written, but ${step.from.shown} was not deleted. ${swapped}` }
    await deleteFile(step.from.absPath)
    const open = ctx.editor.openDocument(step.from.absPath)
      ? ` ${step.from.shown} is still open in the editor: that buffer can be closed.`
      : ""
    moved = `Moved ${step.from.shown} to ${step.target.shown}.${open} `
  }
  return `${moved}${changeLine(step.target, text, editedText === undefined && !step.from ? step.diff : undefined)} ${outcome.message}`
}

function textOf(result: ToolResult): string {
  return result.content.map((c) => (c.type === "text" ? c.text : "")).join("")
}
