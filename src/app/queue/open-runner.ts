import type { SubagentRunner } from "../../agent/subagents/runner.js";
import type { Boot } from "../start.js";
import { relayLeaseMs } from "./job-options.js";
import { storeAddress } from "./store-address.js";
import { StoreError } from "./store.js";

/** A run's runner for its sub-agents' tasks, and what to let go of when the run ends. */
export interface OpenedRunner {
  runner: SubagentRunner;
  close(): Promise<void>;
}

/**
 * The runner `bosun.json` `subagents.backend` asks for: null for "local" (tasks run in this
 * process), else a queue runner on the store, checked before the run starts. A store that cannot
 * be used stops the run with its one line, unless `subagents.fallback` is "local": then
 * `notice` gets that line and the tasks run here.
 */
export async function openSubagentRunner(boot: Boot, notice: (message: string) => void): Promise<OpenedRunner | null> {
  const address = storeAddress(boot.config?.value.subagents, boot.env);
  if (!address) return null;
  const leaseMs = relayLeaseMs(boot.env);
  const [{ openStore }, { QueueRunner }] = await Promise.all([import("./open-store.js"), import("./queue-runner.js")]);
  try {
    const store = await openStore(address);
    // Each task's time in the queue, for whoever wants to know what the queue costs (bench/distributed reads them).
    const runner = await QueueRunner.open(store, leaseMs, (timings) => boot.log.info("sub-agent task ran on a worker", { ...timings }));
    notice(`sub-agents run on bosun workers: ${runner.where}`);
    return { runner, close: () => runner.close() };
  } catch (error) {
    if (address.fallback && error instanceof StoreError) {
      notice(`${error.message}; sub-agents run in this process (subagents.fallback is "local")`);
      return null;
    }
    throw error;
  }
}
