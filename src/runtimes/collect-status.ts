import { displaySafeError, oneLine } from "./kit/probe-error.js";
import { getRuntime, listRuntimes } from "./registry.js";
import type { AuthStatus, DetectionContext, StatusRuntime, RuntimeConfig, RuntimeVariant } from "./kit/types.js";

/** One agent as `bosun agents --json` shows it. */
export interface AgentReport {
  id: string;
  title: string;
  description: string;
  /** Which of the CLIs sharing the binary name this is (runtimes with variants only: grok). */
  variant?: string;
  binary: string;
  installed: boolean;
  installHint: string;
  loginHint: string;
  supportsDeviceLogin: boolean;
  canDisconnect: boolean;
  auth: AuthStatus;
  /** The sign-in rules were checked against the real CLI (differential tests); false: from public docs only. */
  verified: boolean;
  /** The CLI and the check they were verified against, when verified. */
  verifiedAgainst?: string;
}

/** `bosun.json` `agents` (or nothing): each runtime's section. */
export type AgentsConfig = Readonly<Record<string, RuntimeConfig | undefined>> | undefined;

export function runtimeConfig(config: AgentsConfig, id: string): RuntimeConfig {
  return config?.[id] ?? {};
}

/**
 * Every runtime's status, in registry order. All of them run at once, so one slow probe never
 * holds up the others, and one that fails is reported as not signed in with a display-safe
 * error while the others still report.
 */
export function collectAgentReports(ctx: DetectionContext, config: AgentsConfig): Promise<AgentReport[]> {
  return Promise.all(listRuntimes().map((runtime) => reportRuntime(runtime, runtimeConfig(config, runtime.id), ctx)));
}

export async function reportRuntime(runtime: StatusRuntime, config: RuntimeConfig, ctx: DetectionContext): Promise<AgentReport> {
  const { status } = runtime;
  let binary = runtime.binary;
  let installed = false;
  let variant: RuntimeVariant | undefined;
  try {
    binary = status.resolveBinary(config, ctx);
    installed = status.isInstalled(config, ctx);
    variant = runtime.variant?.(config, ctx);
  } catch {
    // An odd PATH or binary setting leaves the agent "not installed"; detection carries on.
  }
  const shown = variant ?? runtime;
  const [auth, canDisconnect] = await Promise.all([
    status.authStatus(config, ctx).then(displaySafeAuth, (error: unknown): AuthStatus => ({ connected: false, mode: "", authPath: "", error: displaySafeError(error) })),
    status.planDisconnect ? status.planDisconnect(config, ctx).then((plan) => plan.action !== "none", () => false) : Promise.resolve(false),
  ]);
  return {
    id: runtime.id,
    title: shown.title,
    description: shown.description,
    ...(variant ? { variant: variant.id } : {}),
    binary,
    installed,
    installHint: shown.installHint,
    loginHint: shown.loginHint,
    supportsDeviceLogin: status.supportsDeviceLogin(),
    canDisconnect,
    auth,
    // A variant (grok) is verified on its own: the npm grok is, Grok Build is not.
    verified: shown.signInVerifiedAgainst !== undefined,
    ...(shown.signInVerifiedAgainst === undefined ? {} : { verifiedAgainst: shown.signInVerifiedAgainst }),
  };
}

// Only the documented fields leave, whatever an adapter put in its answer.
function displaySafeAuth(auth: AuthStatus): AuthStatus {
  const safe: AuthStatus = { connected: auth.connected === true, mode: auth.mode, authPath: String(auth.authPath) };
  if (auth.error !== undefined) safe.error = oneLine(String(auth.error));
  return safe;
}

/** How an agent is signed in, in words: `env`, `own login` (or the runtime's word), `bosun login`, `error` or `no`. */
export function signInLabel(report: AgentReport): string {
  if (!report.auth.connected) return report.auth.error ? "error" : "no";
  const own = getRuntime(report.id).signInLabel?.(report.auth);
  if (own) return own;
  if (report.auth.mode === "env") return "env";
  if (report.auth.mode === "plugin") return "bosun login";
  return getRuntime(report.id).externalLabel ?? "own login";
}

export function agentCounts(reports: AgentReport[]): { total: number; installed: number; signedIn: number } {
  return { total: reports.length, installed: reports.filter((r) => r.installed).length, signedIn: reports.filter((r) => r.auth.connected).length };
}

/** The agents' part of the one-line status summary: "3 of 8 agents signed in". */
export function agentsSummaryPart(reports: AgentReport[]): string {
  const { total, signedIn } = agentCounts(reports);
  return `${signedIn} of ${total} agents signed in`;
}

/** Finds the part `agentsSummaryPart` wrote in a summary line. */
export const AGENTS_SUMMARY_PART = /\b\d+ of \d+ agents signed in\b/;

/** The line under the agents table naming the agents whose sign-in rules were not checked against the real CLI, or null. */
export function unverifiedNote(reports: AgentReport[]): string | null {
  const unverified = reports.filter((report) => !report.verified).map((report) => report.id);
  if (unverified.length === 0) return null;
  return `${unverified.join(", ")}: sign-in rules from public docs, not verified against the real CLI`;
}

/** "3 of 8 agents signed in, 4 installed". */
export function agentsHeadline(reports: AgentReport[]): string {
  const { total, installed, signedIn } = agentCounts(reports);
  return `${signedIn} of ${total} agents signed in, ${installed} installed`;
}
