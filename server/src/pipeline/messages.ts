/**
 * Every text the pipeline itself sends to the model, in one place (each one is pinned by a test).
 * Written for the model: what was wrong, what is allowed, what to try.
 */

export const msg = {
  brokenJson: (tool: string, parserMessage: string) =>
    `Invalid arguments for ${tool}: not valid JSON (${parserMessage}). Send the arguments as one JSON object.`,
  notAnObject: (tool: string) =>
    `Invalid arguments for ${tool}: the arguments must be one JSON object, not a list or a single value. Send the arguments as one JSON object.`,
  unknownTool: (name: string, mode: string, available: readonly string[], near?: string) =>
    `Unknown tool "${name}". Tools available in ${mode} mode: ${list(available)}.${near ? ` Did you mean "${near}"?` : ""}`,
  unavailable: (name: string, why: string, mode: string, available: readonly string[]) =>
    `Tool "${name}" is not available here: ${why}. Tools available in ${mode} mode: ${list(available)}.`,
  disabled: (name: string) => `Tool "${name}" is disabled by the user's settings.`,
  notInMode: (name: string, mode: string, allowingModes: readonly string[]) =>
    `Tool "${name}" is not allowed in ${mode} mode. Modes that allow it: ${list(allowingModes)}. Use switch_mode if the task needs it.`,
  invalidParams: (tool: string, problems: readonly string[], shape: string) =>
    `Invalid arguments for ${tool}: ${problems.join("; ")}. Expected: ${shape}`,
  fileRestriction: (tool: string, modeName: string, pattern: string, description: string | undefined, path: string) =>
    `Tool '${tool}' in mode '${modeName}' can only edit files matching pattern: ${pattern}${description ? ` (${description})` : ""}. Got: ${path}`,
  skippedAfterRejection: (tool: string) => `Skipping ${tool} because the user rejected a previous tool.`,
  skippedAfterStop: (tool: string) => `Skipping ${tool} because the user stopped the task.`,
  afterNewTask: (tool: string) =>
    `${tool} was not run: new_task must be the last tool call of a message, and calls after it are not run. Call ${tool} again in a later message if it is still needed.`,
  completionAfterFailure: (failedTool: string, summary: string) =>
    `attempt_completion was not run: a tool call earlier in this message failed (${failedTool}: ${summary}). Read that result and fix the problem first, then call attempt_completion in a later message.`,
  threw: (tool: string, stage: "preparing" | "running", message: string) =>
    `${tool} failed while ${stage === "preparing" ? "preparing the call" : "running"}: ${message}. This is an error inside the tool, not in your arguments; try again or use another approach.`,
  noToolReminder:
    "Your last reply did not use a tool. Every reply must call at least one tool: use attempt_completion if the task is done, ask_followup_question if you need something from the user, or another tool to make progress.",
  repetitionQuestion: (tool: string) => `The agent is repeating ${tool} with the same input. Continue, stop, or tell it something?`,
  cycleQuestion: (tools: readonly string[]) =>
    `The agent is going round in a loop (${tools.join(" → ")}) with the same inputs. Continue, stop, or tell it something?`,
  mistakeQuestion: (count: number, last: string) =>
    `The agent has made ${count} mistakes in a row (last: ${last}). Continue, stop, or tell it what to do?`,
  repetitionBlocked: (tool: string, count: number) =>
    `${tool} was not run: it would be the ${ordinal(count + 1)} identical call in a row (same tool, same input, same result).`,
  cycleBlocked: (tool: string, tools: readonly string[]) =>
    `${tool} was not run: the last calls repeat the same loop (${tools.join(" → ")}) with the same inputs and results.`,
  userSaysContinue: "The user chose to continue: do not repeat it; try a different approach.",
  userSaysStop: "The user chose to stop the task.",
  userSays: (text: string) => `The user says: ${text}`,
  userNoAnswer: (reason: string) => `The user was asked how to continue and gave no answer (${reason}); the task stops until they do.`,
  mistakeGuidanceContinue:
    "You have made several mistakes in a row; the user chose to let you continue. Read the errors carefully and correct your approach.",
  mistakeGuidance: (text: string) => `You have made several mistakes in a row; the user was asked for guidance. The user says: ${text}`,
  approvedWithFeedback: (feedback: string) => `The user approved this call with feedback: ${feedback}`,
  checkpointFailed: (tool: string, message: string) => `Could not save a checkpoint before ${tool}: ${message}`,
}

function list(items: readonly string[]): string {
  return items.length ? items.join(", ") : "none"
}

function ordinal(n: number): string {
  const suffix =
    n % 10 === 1 && n % 100 !== 11 ? "st" : n % 10 === 2 && n % 100 !== 12 ? "nd" : n % 10 === 3 && n % 100 !== 13 ? "rd" : "th"
  return `${n}${suffix}`
}
