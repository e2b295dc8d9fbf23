import { effectiveHeadless, type HeadlessValue } from "./headless-defaults.js";
import { displaySafeError, oneLine } from "./probe-error.js";
import { listRuntimes } from "./registry.js";
import type { AuthStatus, DetectionContext, Runtime, RuntimeConfig } from "./types.js";

/** One agent as `bosun agents --json` shows it. */
export interface AgentReport {
  id: string;
  title: string;
  description: string;
  binary: string;
  installed: boolean;
  installHint: string;
  supportsDeviceLogin: boolean;
  canDisconnect: boolean;
  auth: AuthStatus;
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

export async function reportRuntime(runtime: Runtime, config: RuntimeConfig, ctx: DetectionContext): Promise<AgentReport> {
  const { status } = runtime;
  let binary = runtime.binary;
  let installed = false;
  try {
    binary = status.resolveBinary(config, ctx);
    installed = status.isInstalled(config, ctx);
  } catch {
    // An odd PATH or binary setting leaves the agent "not installed"; detection carries on.
  }
  const [auth, canDisconnect] = await Promise.all([
    status.authStatus(config, ctx).then(displaySafeAuth, (error: unknown): AuthStatus => ({ connected: false, mode: "", authPath: "", error: displaySafeError(error) })),
    status.planDisconnect ? status.planDisconnect(config, ctx).then((plan) => plan.action !== "none", () => false) : Promise.resolve(false),
  ]);
  return {
    id: runtime.id,
    title: runtime.title,
    description: runtime.description,
    binary,
    installed,
    installHint: runtime.installHint,
    supportsDeviceLogin: status.supportsDeviceLogin(),
    canDisconnect,
    auth,
  };
}

// Only the documented fields leave, whatever an adapter put in its answer.
function displaySafeAuth(auth: AuthStatus): AuthStatus {
  const safe: AuthStatus = { connected: auth.connected === true, mode: auth.mode, authPath: String(auth.authPath) };
  if (auth.error !== undefined) safe.error = oneLine(String(auth.error));
  return safe;
}

/** Each runtime's headless defaults with `bosun.json` `agents.<id>` over them. */
export function collectHeadlessDefaults(config: AgentsConfig): Record<string, Record<string, HeadlessValue>> {
  return Object.fromEntries(listRuntimes().map((runtime) => [runtime.id, effectiveHeadless(runtime.headless, runtimeConfig(config, runtime.id))]));
}
