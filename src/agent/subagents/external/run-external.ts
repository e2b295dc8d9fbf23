import type { AgentEvent } from "../../events.js";
import type { SubagentStatus, TokenUsage } from "../../session/format.js";
import type { CapMeter, CapReachedError } from "../limits.js";
import { shortLine, type ExternalEvent, type StreamParser } from "./external-events.js";
import { ExternalProcess, type ExternalCommand, type ProcessEnd } from "./external-process.js";

/** One external sub-agent run: the command, how to read it, and what it may use. */
export interface ExternalRunOptions {
  /** The agent's name for messages ("claude"). */
  name: string;
  command: ExternalCommand;
  parser: StreamParser;
  /** Aborted when the task is cancelled (the user, the parent): the process group is ended. */
  signal: AbortSignal;
  /** The sub-agent's events, as bosun's own sub-agents report theirs. */
  onEvent(event: AgentEvent): void;
  meter: CapMeter;
  /** Told at once when a cap is reached (the tree's stops the other sub-agents too). */
  onCap(reason: CapReachedError): void;
  /** The price of one model call from the catalog (USD), for CLIs that do not price their calls; null when unknown. */
  price(model: string | undefined, usage: { input: number; output: number }): number | null;
  /** Redacts what the CLI prints before anyone sees it. */
  redact(text: string): string;
}

/** How an external run ended, in the terms of a sub-agent's end. */
export interface ExternalEnd {
  status: SubagentStatus;
  text: string;
  turns: number;
  usage: TokenUsage;
  /** Null when neither the CLI nor the catalog could price a call. */
  costUsd: number | null;
  /** Set when a cap stopped it. */
  stoppedBy?: CapReachedError;
  /** The CLI's own session id, when it said. */
  cliSession?: string;
  model?: string;
}

/**
 * Runs an agent CLI headless and follows its event stream: turns, tool calls, text, tokens and
 * cost go out as sub-agent events while it runs; caps are checked at each step and on a timer
 * (the time caps), and a cap reached ends the process group; the result (or why there is none)
 * is the end. Lines that are not JSON objects are counted, not trusted: a CLI that prints only
 * garbage fails with its first line quoted.
 */
export async function runExternal(options: ExternalRunOptions): Promise<ExternalEnd> {
  const { parser, meter, redact } = options;
  let turns = 0;
  let input = 0;
  let output = 0;
  let cost = 0;
  let costKnown = true;
  let turnText = "";
  let lastText = "";
  let result: Extract<ExternalEvent, { type: "result" }> | null = null;
  let lastError = "";
  let readLines = 0;
  let firstGarbage: string | null = null;
  let stoppedBy: CapReachedError | undefined;
  let session: string | undefined;
  let model: string | undefined;
  const toolStarts = new Map<string, number>();

  let process: ExternalProcess | null = null;
  const stopFor = (reached: CapReachedError | null) => {
    if (!reached || stoppedBy) return;
    stoppedBy = reached;
    process?.stop();
    options.onCap(reached);
  };

  const handle = (event: ExternalEvent) => {
    switch (event.type) {
      case "session":
        session = event.id;
        if (event.model) model = event.model;
        return;
      case "turn":
        turns++;
        turnText = "";
        options.onEvent({ type: "turn-start", turn: turns });
        stopFor(meter.turn(turns));
        return;
      case "text":
        turnText += event.text;
        lastText = event.text;
        options.onEvent({ type: "text", delta: redact(event.text) });
        return;
      case "tool-start":
        toolStarts.set(event.id, Date.now());
        // As bosun's own calls read (a tool, then what it works on): "Bash: npm test".
        options.onEvent({ type: "tool-start", callId: event.id, tool: event.tool, description: redact(event.description === event.tool ? event.tool : `${event.tool}: ${event.description}`) });
        return;
      case "tool-end": {
        const started = toolStarts.get(event.id);
        toolStarts.delete(event.id);
        options.onEvent({ type: "tool-end", callId: event.id, tool: event.tool, status: event.ok ? "ok" : "error", summary: redact(event.summary), ms: started === undefined ? 0 : Date.now() - started });
        return;
      }
      case "usage": {
        const priced = event.costUsd ?? options.price(model, event);
        if (priced === null) costKnown = false;
        input += event.input;
        output += event.output;
        cost += priced ?? 0;
        options.onEvent({ type: "reply-end", text: redact(turnText), usage: { inputTokens: event.input, outputTokens: event.output } });
        stopFor(meter.spend(event.input + event.output, priced ?? 0));
        return;
      }
      case "result":
        result = event;
        if (event.costUsd !== undefined) {
          // The CLI's own total replaces the sum (it knows its cache discounts); the meter learns the difference.
          stopFor(meter.spend(0, Math.max(0, event.costUsd - cost)));
          cost = event.costUsd;
          costKnown = true;
        }
        if (event.turns !== undefined && event.turns > turns) turns = event.turns;
        return;
      case "error":
        lastError = event.message;
        return;
    }
  };

  const onLine = (line: string) => {
    const trimmed = line.trim();
    if (trimmed === "") return;
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = undefined;
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      firstGarbage ??= shortLine(trimmed, 120);
      return;
    }
    readLines++;
    for (const event of parser.line(value as Record<string, unknown>)) handle(event);
  };

  if (options.signal.aborted) return { status: "cancelled", text: "cancelled before it started", turns: 0, usage: {}, costUsd: 0 };
  process = new ExternalProcess(options.command, onLine);
  const onAbort = () => process?.stop();
  options.signal.addEventListener("abort", onAbort, { once: true });
  let timer: NodeJS.Timeout | null = null;
  const armTimer = () => {
    const ms = meter.msToTimeCap();
    if (ms === null) return;
    timer = setTimeout(
      () => {
        const reached = meter.check();
        if (reached) stopFor(reached);
        else armTimer();
      },
      Math.max(0, ms) + 5,
    );
  };
  armTimer();
  let end: ProcessEnd;
  try {
    end = await process.ended;
  } finally {
    options.signal.removeEventListener("abort", onAbort);
    if (timer) clearTimeout(timer);
  }

  if (!result && end.code === 0 && !stoppedBy && !options.signal.aborted) for (const event of parser.finish?.() ?? []) handle(event);
  const usage: TokenUsage = { inputTokens: input, outputTokens: output };
  const common = { turns, usage, costUsd: costKnown ? Number(cost.toFixed(10)) : null, ...(session ? { cliSession: session } : {}), ...(model ? { model } : {}) };
  if (stoppedBy) {
    const partial = lastText.trim() === "" ? "" : `\nIts last words: ${redact(shortLine(lastText, 400))}`;
    return { ...common, status: "stopped", text: `${stoppedBy.message}; its work is kept${partial}`, stoppedBy };
  }
  if (options.signal.aborted) return { ...common, status: "cancelled", text: "cancelled" };
  const finished = result as Extract<ExternalEvent, { type: "result" }> | null;
  if (finished?.ok) {
    const answer = (finished.text.trim() || lastText.trim());
    if (answer !== "") return { ...common, status: "completed", text: redact(answer) };
    return { ...common, status: "failed", text: `${options.name} ended without a final answer` };
  }
  return { ...common, status: "failed", text: redact(failureText(options.name, end, finished, lastError, readLines, firstGarbage)) };
}

/** Why a run that did not complete failed, in one line: the CLI's own words when it gave any. */
function failureText(name: string, end: ProcessEnd, result: Extract<ExternalEvent, { type: "result" }> | null, lastError: string, readLines: number, garbage: string | null): string {
  if (end.spawnError) return `${name} could not be started: ${end.spawnError}`;
  const how = end.signal ? `was ended by ${end.signal}` : `exited with code ${end.code}`;
  if (result && result.text.trim() !== "") return `${name} failed: ${shortLine(result.text, 300)}`;
  if (lastError !== "") return `${name} failed: ${shortLine(lastError, 300)}`;
  if (readLines === 0 && garbage !== null) return `${name} printed no events bosun can read (its first line: "${garbage}"); it ${how}`;
  const stderr = end.stderrTail.at(-1);
  if (end.code === 0 && !end.signal) return `${name} ended without a result${stderr ? `: ${shortLine(stderr, 300)}` : ""}`;
  return `${name} ${how}${stderr ? `: ${shortLine(stderr, 300)}` : " without a result"}`;
}
