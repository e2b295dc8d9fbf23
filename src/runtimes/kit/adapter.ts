import { join } from "node:path";
import type { Env } from "../../kernel/paths.js";
import { configuredBinary, locateBinary } from "./detect/binary.js";
import { CredentialReadError } from "./detect/file-reader.js";
import { codePointSorted } from "./detect/env.js";
import type { AuthMode, AuthStatus, CredentialLocations, DetectionContext, DisconnectPlan, RuntimeConfig, StatusAdapter } from "./types.js";

interface AdapterSpec {
  id: string;
  binary: string;
  authStatus(config: RuntimeConfig, ctx: DetectionContext): Promise<AuthStatus>;
  resolveBinary?(config: RuntimeConfig, ctx: DetectionContext): string;
  planDisconnect?(config: RuntimeConfig, ctx: DetectionContext): Promise<DisconnectPlan>;
  supportsDeviceLogin?: boolean;
  /** As `StatusAdapter.credentialLocations`; duplicates and order do not matter here. */
  credentialLocations(config: RuntimeConfig, ctx: DetectionContext): CredentialLocations;
}

/** A status adapter with the shared parts filled in: binary lookup, installed check, data folder. */
export function defineStatusAdapter(spec: AdapterSpec): StatusAdapter {
  const resolveBinary = spec.resolveBinary ?? ((config: RuntimeConfig, ctx: DetectionContext) => configuredBinary(config, spec.binary, ctx.home));
  const adapter: StatusAdapter = {
    resolveBinary,
    isInstalled: (config, ctx) => locateBinary(resolveBinary(config, ctx), ctx) !== undefined,
    authStatus: spec.authStatus,
    supportsDeviceLogin: () => spec.supportsDeviceLogin ?? false,
    dataDir: (ctx) => runtimeDataDir(ctx, spec.id),
    credentialLocations: (config, ctx) => mergeCredentialLocations(spec.credentialLocations(config, ctx)),
  };
  if (spec.planDisconnect) adapter.planDisconnect = spec.planDisconnect;
  return adapter;
}

/** `<data>/runtimes/<id>`: bosun-owned state for one runtime. */
export function runtimeDataDir(ctx: Pick<DetectionContext, "dataDir">, id: string): string {
  return join(ctx.dataDir, "runtimes", id);
}

/** Several lists of credential locations as one: each kind deduplicated and in code-point order. */
export function mergeCredentialLocations(...parts: readonly CredentialLocations[]): CredentialLocations {
  return {
    files: codePointSorted(parts.flatMap((part) => part.files)),
    folders: codePointSorted(parts.flatMap((part) => part.folders)),
    env: codePointSorted(parts.flatMap((part) => part.env)),
  };
}

/**
 * The same places with no variable but HOME: where an agent keeps credentials by default. Listed
 * beside the overridden places, as a login left at the default one is still there to be read.
 */
export function atDefaultPlaces<T extends { home: string; env: Env }>(ctx: T): T {
  return { ...ctx, env: { HOME: ctx.home } };
}

export function signedIn(mode: Exclude<AuthMode, "">, authPath: string): AuthStatus {
  return { connected: true, mode, authPath };
}

export function notSignedIn(authPath: string): AuthStatus {
  return { connected: false, mode: "", authPath };
}

/**
 * For adapters that stop at an unreadable credential path: the check becomes "not signed in"
 * with the (display-safe) reason. Other failures are left to the caller.
 */
export async function stopOnReadError(check: () => AuthStatus | Promise<AuthStatus>): Promise<AuthStatus> {
  try {
    return await check();
  } catch (error) {
    if (error instanceof CredentialReadError) return { connected: false, mode: "", authPath: "", error: error.message };
    throw error;
  }
}

/** For disconnect plans: a credential path that cannot be read is the reason nothing is done. */
export function noPlanOnReadError(plan: () => DisconnectPlan): DisconnectPlan {
  try {
    return plan();
  } catch (error) {
    if (error instanceof CredentialReadError) return { action: "none", reason: error.message };
    throw error;
  }
}

/** For checks whose read errors mean "not there" (Gemini, Codex). */
export function unlessUnreadable<T>(check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (error instanceof CredentialReadError) return undefined;
    throw error;
  }
}
