import type { Command } from "commander";
import { packageVersion } from "../kernel/package-info.js";
import { displayPath } from "../kernel/paths.js";
import type { Boot } from "../app/start.js";
import { isUserError, UserError } from "../kernel/errors.js";
import type { StatusRuntime } from "../runtimes/kit/types.js";
import type { Spinner } from "./spinner.js";
import { bootForCommand } from "./boot.js";
import { saveAgentsPartInHookSnapshot } from "./hook-snapshot.js";
import { styler, notify, writeJson, writeLine, type Output } from "./output.js";

export function registerAgents(program: Command, output: Output): void {
  const agents = program
    .command("agents")
    .description("which terminal coding agents are installed and signed in (and how); login and disconnect")
    .option("--json", "print the status as JSON")
    .enablePositionalOptions()
    .action(async (options: { json?: boolean }) => listAgents(options, output));
  agents
    .command("login")
    .description("sign an agent in with a device code (codex); the login is stored in bosun's data folder")
    .argument("<agent>", "the agent to sign in")
    .option("--json", "print the code and the result as JSON lines")
    .action(async (id: string, options: { json?: boolean }) => loginAgent(id, options, output));
  agents
    .command("disconnect")
    .description("sign an agent out: remove the credentials bosun can name exactly (codex, claude, opencode)")
    .argument("<agent>", "the agent to sign out")
    .option("--yes", "do it without asking")
    .option("--json", "print the result as JSON")
    .action(async (id: string, options: { yes?: boolean; json?: boolean }) => disconnectAgent(id, options, output));
}

async function detection(boot: Boot) {
  const [collect, context, registry] = await Promise.all([
    import("../runtimes/collect-status.js"),
    import("../runtimes/kit/machine.js"),
    import("../runtimes/registry.js"),
  ]);
  const ctx = context.machineDetectionContext(boot.agentEnv, boot.paths);
  const agentsConfig = boot.config?.value.agents;
  return { ...collect, ...registry, ctx, agentsConfig, configOf: (runtime: StatusRuntime) => collect.runtimeConfig(agentsConfig, runtime.id) };
}

/** `bosun agents [--json]` (also run directly by main's fast path). */
export async function listAgents(options: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const [{ agentsHeadline, agentsSummaryPart, AGENTS_SUMMARY_PART, collectAgentReports, unverifiedNote, ctx, agentsConfig }, view] = await Promise.all([
    detection(boot),
    options.json ? import("../runtimes/headless.js") : import("./render-agents.js"),
  ]);
  const reports = await collectAgentReports(ctx, agentsConfig);
  saveAgentsPartInHookSnapshot(boot, packageVersion(), agentsSummaryPart(reports), AGENTS_SUMMARY_PART);
  if ("collectHeadlessDefaults" in view) return writeJson(output, { agents: reports, defaults: view.collectHeadlessDefaults(agentsConfig) });
  const { agentsTable } = view;
  const style = styler(output);
  writeLine(output.stdout, style("bold", `Agents: ${agentsHeadline(reports)}`));
  writeLine(output.stdout);
  for (const line of agentsTable(reports, boot.paths.home, boot.paths.data, output)) writeLine(output.stdout, line);
  const note = unverifiedNote(reports);
  if (note) {
    writeLine(output.stdout);
    writeLine(output.stdout, style("dim", note));
  }
}

async function loginAgent(id: string, options: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const { getRuntime, ctx, configOf } = await detection(boot);
  const runtime = getRuntime(id);
  // Codex is the one runtime with a device login (its OAuth client is public); the flow is its own module.
  if (!runtime.status.supportsDeviceLogin() || runtime.id !== "codex") {
    throw new UserError(`${runtime.title} has no device login in bosun; sign in with: ${runtime.loginHint}`);
  }
  const login = await import("../runtimes/codex-device-login.js");
  login.checkCodexLoginFolder(ctx);
  const { log } = boot;
  const cancel = new AbortController();
  const onInterrupt = () => cancel.abort();
  // `on`, not `once`: while a listener of ours is there, the spinner's exit hook leaves Ctrl-C to us.
  process.on("SIGINT", onInterrupt);
  let spinner: Spinner | undefined;
  try {
    const io = { base: login.codexAuthBase(boot.env), signal: cancel.signal };
    const start = await login.startCodexDeviceLogin(io);
    log.info("agent device login started", { agent: runtime.id, verificationUrl: start.verificationUrl });
    const shown = { agent: runtime.id, userCode: start.userCode, verificationUrl: start.verificationUrl, interval: start.interval, expiresAt: start.expiresAt };
    if (options.json) writeLine(output.stdout, JSON.stringify(shown));
    else {
      const style = styler(output);
      writeLine(output.stdout, `To sign ${runtime.title} in, open ${style("bold", start.verificationUrl)}`);
      writeLine(output.stdout, `and enter the code ${style("bold", start.userCode)} (it expires in 15 minutes).`);
      if (!runtime.status.isInstalled(configOf(runtime), ctx)) notify(output, `bosun: note: ${runtime.title} is not installed here (${runtime.installHint})`);
    }
    spinner = await (await import("./spinner.js")).createSpinner(output);
    spinner.show("Waiting for you to finish signing in (Ctrl-C cancels)");
    const tokens = await login.waitForCodexDeviceLogin(start, io);
    const authPath = await login.saveCodexLogin(ctx, tokens);
    spinner.stop();
    spinner = undefined;
    log.info("agent device login completed", { agent: runtime.id, authPath });
    if (options.json) return writeLine(output.stdout, JSON.stringify({ agent: runtime.id, completed: true, accountId: tokens.accountId, authPath }));
    writeLine(output.stdout, `Signed in${tokens.accountId ? ` (account ${tokens.accountId})` : ""}. The login is in ${displayPath(authPath, boot.paths.home)}.`);
    if (runtime.pluginLoginHint) writeLine(output.stdout, `${capitalize(runtime.pluginLoginHint(displayPath(runtime.status.dataDir(ctx), boot.paths.home)))}.`);
  } catch (error) {
    spinner?.stop();
    log.warn("agent device login failed", { agent: runtime.id, error: safeMessage(error) });
    throw error;
  } finally {
    process.removeListener("SIGINT", onInterrupt);
  }
}

async function disconnectAgent(id: string, options: { yes?: boolean; json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output);
  const { getRuntime, ctx, configOf } = await detection(boot);
  const runtime = getRuntime(id);
  const { carryOutDisconnect, describeDisconnectPlan, planRuntimeDisconnect } = await import("../runtimes/kit/disconnect.js");
  const plan = await planRuntimeDisconnect(runtime, configOf(runtime), ctx);
  const what = describeDisconnectPlan(plan, boot.paths.home);
  if (!options.yes) {
    const { askYesNo } = await import("./confirm.js");
    const answer = await askYesNo(output, `Disconnect ${runtime.title}: ${what}?`);
    if (answer === undefined) throw new UserError(`disconnecting ${runtime.title} would ${what}; pass --yes to confirm (stdin is not a terminal)`);
    if (!answer) return notify(output, "bosun: nothing changed");
  }
  const { log } = boot;
  try {
    const outcome = await carryOutDisconnect(runtime, plan, ctx);
    log.info("agent disconnected", { ...outcome });
    if (options.json) return writeJson(output, outcome);
    const where = displayPath(outcome.authPath, boot.paths.home);
    writeLine(output.stdout, outcome.removed ? `Disconnected ${runtime.title} (${where}).` : `${runtime.title}: ${outcome.message ?? "nothing removed"} (${where}).`);
  } catch (error) {
    log.warn("agent disconnect failed", { agent: runtime.id, error: safeMessage(error) });
    throw error;
  }
}

/** What goes into the log about a failure: our own (display-safe) messages, otherwise only the kind. */
function safeMessage(error: unknown): string {
  if (isUserError(error)) return error.message;
  return error instanceof Error ? error.name : typeof error;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
