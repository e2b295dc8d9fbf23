import { existsSync, statSync } from "node:fs";
import { hostname } from "node:os";
import { ApprovalGate, type Approver } from "../../agent/approval/approval.js";
import type { AgentUi } from "../../agent/events.js";
import { loadInstructions } from "../../agent/instruction-files.js";
import { instructionLimits } from "../../agent/instructions.js";
import type { AgentOptions } from "../../agent/loop.js";
import { narrowSandbox, type Sandbox } from "../../agent/sandbox/sandbox.js";
import { MemorySessionStore } from "../../agent/session/store.js";
import type { SubagentSetup } from "../../agent/subagents/subagent.js";
import type { TaskOrder } from "../../agent/subagents/runner.js";
import { BackgroundJobs } from "../../agent/tools/background-jobs.js";
import { builtinTools } from "../../agent/tools/builtin.js";
import { ToolRegistry } from "../../agent/tools/tool-registry.js";
import type { Redactor } from "../../kernel/redact/secrets.js";
import { packageVersion } from "../../kernel/package-info.js";
import { languageModelFor } from "../../llm/language-model.js";
import type { ModelSource } from "../../llm/model-source.js";
import { modelOptions, runRedactor } from "../agent-run.js";
import { externalAgents } from "../external-agents.js";
import { openRunSandbox } from "../run-sandbox.js";
import type { Boot } from "../start.js";

/** A task this worker cannot run as its parent asked: one line, the task fails with it (not retried). */
export class WorkerRefusal extends Error {
  override name = "WorkerRefusal";
}

/** The agent a worker runs one task with, and what to let go of after. */
export interface WorkerAgent {
  options: AgentOptions;
  setup: SubagentSetup;
  redactor: Redactor;
  close(): Promise<void>;
}

/**
 * The agent a task runs with on this worker, as its parent's loop would have made it: the
 * parent's model by name (this worker's catalog and keys), bosun's tools (not the parent's MCP
 * servers), the parent's approval mode, rules and grants with `approver` asking the parent, this
 * worker's sandbox narrowed to the parent's (never wider: a parent whose sub-agents run in a
 * sandbox is refused by a worker without one), the parent's folder, which must exist here.
 */
export async function workerAgent(boot: Boot, source: ModelSource, order: TaskOrder, approver: Approver, ui: AgentUi, signal: AbortSignal): Promise<WorkerAgent> {
  const { parent } = order;
  const workdir = parent.workdir;
  if (!existsSync(workdir) || !statSync(workdir).isDirectory()) throw new WorkerRefusal(`the task's folder ${workdir} does not exist on this worker (${hostname()}); run workers where the project is checked out at the same path`);
  const target = await source.resolve(`${parent.model.providerID}/${parent.model.modelID}`).catch((error: unknown) => {
    throw new WorkerRefusal(`this worker cannot use the model ${parent.model.providerID}/${parent.model.modelID}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const [{ sandbox: own }, model, redactor] = await Promise.all([openRunSandbox(boot, source.credentialEnvVars, workdir), languageModelFor(target), runRedactor(boot, source, target)]);
  const sandbox = parentSandbox(own, parent.sandbox);
  const approval = new ApprovalGate({ mode: parent.mode, rules: parent.rules, approver, grants: new Set(parent.grants) });
  const jobs = new BackgroundJobs();
  const store = new MemorySessionStore(redactor);
  const session = store.create({ workdir, model: { providerID: target.providerID, modelID: target.modelID, name: target.name }, bosunVersion: packageVersion() });
  const instructions = loadInstructions({ workdir, configDir: boot.paths.config, home: boot.paths.home }, instructionLimits(target.limits.context));
  const options: AgentOptions = {
    ...modelOptions(target, model),
    tools: new ToolRegistry(builtinTools()),
    session,
    approval,
    redactor,
    extensions: boot.extensions,
    workdir,
    instructions,
    env: sandbox.env,
    sandbox,
    jobs,
    ui,
    signal,
    depth: order.ref.depth - 1,
    ...(parent.maxTurns ? { maxTurns: parent.maxTurns } : {}),
    ...(parent.systemPrompt ? { systemPrompt: parent.systemPrompt } : {}),
  };
  const setup: SubagentSetup = {
    settings: boot.config?.value.subagents ?? {},
    external: externalAgents(boot, source, workdir),
    dataDir: boot.paths.data,
    prices: target.prices ?? null,
  };
  return {
    options,
    setup,
    redactor,
    async close() {
      await jobs.stopAll();
      session.close();
    },
  };
}

/** This worker's sandbox, no wider than the one the parent's sub-agents have. */
function parentSandbox(own: Sandbox, asked: TaskOrder["parent"]["sandbox"]): Sandbox {
  if (!asked || asked.mode === "off") return own;
  if (own.mode === "off") throw new WorkerRefusal(`the parent runs its sub-agents' tools in a sandbox (mode "${asked.mode}"), and this worker's bosun.json turns the sandbox off (sandbox.mode "off"); turn it on here`);
  return narrowSandbox(own, { ...(asked.network === "off" ? { network: "off" as const } : {}), writable: asked.writable });
}
