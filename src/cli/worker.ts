import type { Command } from "commander";
import type { QueueStatus } from "../app/queue/queue-status.js";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { timeAgo } from "./catalog-words.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";

type Style = ReturnType<typeof styler>;

/** The most tasks one worker runs at once. */
const MAX_CONCURRENCY = 64;

/** `bosun worker` and `bosun queue`: run sub-agent tasks from the queue of `bosun.json` `subagents`, and look at it. */
export function registerWorker(program: Command, output: Output): void {
  program
    .command("worker")
    .description("take sub-agent tasks from the queue in bosun.json subagents (Redis or PostgreSQL) and run them here; Ctrl-C or SIGTERM finishes the running ones, twice hands them back")
    .option("--concurrency <n>", `how many tasks run at once (1-${MAX_CONCURRENCY}, default 4)`)
    .option("--queue <name>", "take the tasks of this queue instead of subagents.queue")
    .option("--status", "show the queue's workers and tasks (as bosun queue does) and exit")
    .option("--json", "with --status: print it as JSON")
    .action(async (flags: { concurrency?: string; queue?: string; status?: boolean; json?: boolean }) => {
      const concurrency = parseConcurrency(flags.concurrency);
      if (flags.status) return showQueue(output, flags.queue, flags.json ?? false);
      if (flags.json) throw new UserError("--json goes with --status");
      const boot = await bootForCommand(output);
      const [{ runQueueWorker }, { createModelSource }] = await Promise.all([import("../app/queue/queue-worker.js"), import("../app/resolve-model.js")]);
      const source = await createModelSource(boot);
      const drain = new AbortController();
      const handBack = new AbortController();
      const say = (line: string) => writeLine(output.stderr, `bosun worker: ${line}`);
      const onSignal = () => {
        if (!drain.signal.aborted) {
          say("stopping: no new tasks; the running ones finish (again to hand them back to the queue now)");
          drain.abort();
        } else if (!handBack.signal.aborted) {
          say("handing the running tasks back to the queue");
          handBack.abort();
        }
      };
      process.on("SIGTERM", onSignal);
      process.on("SIGINT", onSignal);
      try {
        await runQueueWorker(boot, source, { concurrency, ...(flags.queue ? { queue: flags.queue } : {}) }, {
          say,
          ready: ({ id, where, version }) => say(`${id} takes tasks from ${where}, server ${version}, ${concurrency} at once`),
          drain: drain.signal,
          handBack: handBack.signal,
        });
        say("stopped");
      } finally {
        process.off("SIGTERM", onSignal);
        process.off("SIGINT", onSignal);
      }
    });

  program
    .command("queue")
    .description("show the sub-agent queue of bosun.json subagents: its workers, how many tasks wait, run, failed, and the running ones (stalled: their worker is gone)")
    .option("--queue <name>", "this queue instead of subagents.queue")
    .option("--json", "print it as JSON")
    .action(async (flags: { queue?: string; json?: boolean }) => showQueue(output, flags.queue, flags.json ?? false));
}

async function showQueue(output: Output, queueName: string | undefined, json: boolean): Promise<void> {
  const boot = await bootForCommand(output);
  const { queueStatus } = await import("../app/queue/queue-status.js");
  const status = await queueStatus(boot, queueName);
  if (json) return writeJson(output, status);
  for (const line of statusLines(status, styler(output))) writeLine(output.stdout, line);
}

/** `--concurrency`: a whole number from 1 to 64. */
function parseConcurrency(text: string | undefined): number {
  if (text === undefined) return 4;
  const n = Number(text);
  if (!/^\d+$/.test(text) || n < 1 || n > MAX_CONCURRENCY) throw new UserError(`--concurrency ${JSON.stringify(text)}: use a whole number from 1 to ${MAX_CONCURRENCY}`);
  return n;
}

function statusLines(status: QueueStatus, style: Style): string[] {
  const { counts } = status;
  const lines = [
    `${style("bold", "queue")} ${status.queue} on ${status.backend === "redis" ? "Redis" : "PostgreSQL"} ${status.version} at ${status.store}`,
    `  ${counts.waiting} waiting, ${counts.active} running, ${counts.delayed} to retry, ${counts.completed} done, ${counts.failed} failed`,
  ];
  if (status.workers.length === 0) lines.push(style("yellow", "  no worker is running: start one with bosun worker"));
  else {
    const rows = [["WORKER", "STATE", "TASKS", "BOSUN", "UP"].map((h) => style("bold", h))];
    for (const worker of status.workers) rows.push([worker.id, worker.state, `${worker.running.length}/${worker.concurrency}`, worker.bosun, timeAgo(Date.now() - worker.startedAt).replace(/ ago$/, "")]);
    lines.push("", ...columns(rows));
  }
  if (status.running.length > 0) {
    const rows = [["TASK", "WORKER", "PICKUPS", "STARTED"].map((h) => style("bold", h))];
    for (const task of status.running) rows.push([task.key, task.stalled ? style("yellow", "stalled (its worker is gone; picked up again once its lock expires)") : (task.worker ?? "?"), String(task.pickups), task.startedAt ? timeAgo(Date.now() - task.startedAt) : "?"]);
    lines.push("", ...columns(rows));
  }
  return lines;
}
