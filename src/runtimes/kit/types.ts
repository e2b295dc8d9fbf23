import type { Env } from "../../kernel/paths.js";
import type { FileReader } from "./detect/file-reader.js";
import type { InstallSurface } from "./install-types.js";

/**
 * How an agent is signed in: `plugin` = credentials bosun owns (Codex device login), `external` =
 * the agent's own login or credential store (for a0: a reachable host), `env` = an environment
 * variable (then `authPath` is its name, never its value), `""` = not signed in.
 */
export type AuthMode = "plugin" | "external" | "env" | "";

/** An adapter's answer. `error` is display-safe: it never holds a credential's content. */
export interface AuthStatus {
  connected: boolean;
  mode: AuthMode;
  authPath: string;
  error?: string;
}

/**
 * The `bosun.json` `agents.<id>` section of one runtime. Adapters read only `binary` (all) and
 * `host` (a0); the other keys are headless defaults for whoever drives the agent.
 */
export type RuntimeConfig = Readonly<Record<string, unknown>> & { binary?: unknown; host?: unknown };

/** Answers whether a TCP connection to host:port opens within the timeout. */
export type SocketProber = (host: string, port: number, timeoutMs: number) => Promise<boolean>;

/**
 * Everything detection reads, passed in so that it stays pure: the environment, the home folder,
 * a file reader and a socket prober. Tests hand in temp folders and fakes; nothing else is
 * touched.
 */
export interface DetectionContext {
  env: Env;
  home: string;
  cwd: string;
  /** bosun's data folder; a runtime keeps bosun-owned state in `<data>/runtimes/<id>/`. */
  dataDir: string;
  files: FileReader;
  probeSocket: SocketProber;
}

/** One change to a credential store: delete a file, or take one top-level key out of a JSON file (the rest kept byte for byte). */
export type CredentialEdit = { kind: "remove-file"; path: string } | { kind: "remove-json-key"; path: string; key: string };

/**
 * What `disconnect` would do, decided without changing anything (so a prompt can say it first):
 * delete one credential file the adapter names exactly, make a few such edits, run the agent's
 * own logout command, or nothing (with the reason).
 */
export type DisconnectPlan =
  | { action: "remove-file"; mode: Exclude<AuthMode, "">; path: string }
  | { action: "edit-credentials"; mode: Exclude<AuthMode, "">; authPath: string; edits: CredentialEdit[] }
  | { action: "run-logout"; mode: "external"; command: string; args: string[]; authPath: string; secretFiles: string[] }
  | { action: "none"; reason: string };

/**
 * Where an agent keeps credentials, as paths and names only: files (absolute), folders whose
 * whole content is credentials, and the environment variables it reads a credential from. What a
 * sandbox for bosun's own tools masks and drops, so that nothing started there is signed in.
 */
export interface CredentialLocations {
  files: string[];
  folders: string[];
  env: string[];
}

/**
 * The status facet of a runtime. Status only: nothing here runs, installs or builds an agent.
 * The one writer is `planDisconnect`'s plan, carried out by `disconnectRuntime`.
 */
export interface StatusAdapter {
  /** The configured `binary` (trimmed, `~` expanded) or the runtime's default. */
  resolveBinary(config: RuntimeConfig, ctx: DetectionContext): string;
  /** A configured path must be an executable regular file; a bare name is looked up on PATH. */
  isInstalled(config: RuntimeConfig, ctx: DetectionContext): boolean;
  authStatus(config: RuntimeConfig, ctx: DetectionContext): Promise<AuthStatus>;
  supportsDeviceLogin(): boolean;
  /** Only runtimes whose credential store bosun can name exactly have one. */
  planDisconnect?(config: RuntimeConfig, ctx: DetectionContext): Promise<DisconnectPlan>;
  /** bosun's own folder for this runtime (not created here). */
  dataDir(ctx: Pick<DetectionContext, "dataDir">): string;
  /**
   * Where this agent keeps credentials: files (absolute, after the env overrides the agent honours,
   * e.g. CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME / GOOGLE_APPLICATION_CREDENTIALS,
   * XDG_DATA_HOME, and at the default places too, since a login left there can still be read),
   * folders whose whole content is credentials, and the env var names it reads credentials from.
   * Built from the constants and path functions the sign-in check uses; deduplicated and sorted.
   * Nothing is read or checked for existence here.
   */
  credentialLocations(config: RuntimeConfig, ctx: DetectionContext): CredentialLocations;
}

/**
 * One of several different CLIs that share a runtime's binary name (`grok` is xAI's Grok Build or
 * the npm `@vibe-kit/grok-cli`): what `bosun agents` shows for it, and its own sign-in rules.
 */
export interface RuntimeVariant {
  /** Stable id, shown as `variant` in `bosun agents --json`. */
  id: string;
  title: string;
  description: string;
  installHint: string;
  loginHint: string;
  /** As `Runtime.signInVerifiedAgainst`, for this variant. */
  signInVerifiedAgainst?: string;
}

/**
 * What `bosun agents` knows about an agent: how to find its binary, whether and how it is signed
 * in (the status adapter), and its headless defaults. Status only: nothing here installs anything.
 */
export interface StatusPart {
  description: string;
  /** Default executable name. */
  binary: string;
  /** Display text only; bosun never runs it. */
  installHint: string;
  /** How a person signs this agent in (display text only). */
  loginHint: string;
  /** How the agent is pointed at a login bosun owns (runtimes with device login). */
  pluginLoginHint?(dataDir: string): string;
  /** What "signed in" means for this runtime's external mode, when not its own login. */
  externalLabel?: string;
  /** Keys and defaults of `bosun.json` `agents.<id>`. */
  headless: HeadlessDefaults;
  status: StatusAdapter;
  /**
   * The real CLI whose own sign-in verdict this runtime's detection was checked against by the
   * differential tests in test/real (e.g. "claude 2.1.197 (claude auth status)"). Absent: the rules
   * follow the agent's public documentation only, and `bosun agents --json` marks them unverified.
   */
  signInVerifiedAgainst?: string;
  /** A shorter word than the mode's for how it is signed in (e.g. "helper", "Bedrock"); undefined: the mode's word. */
  signInLabel?(auth: AuthStatus): string | undefined;
  /**
   * For a binary name several CLIs share: which one is here, decided by looking at the installed
   * binary (never by running it). Its fields replace the runtime's own in `bosun agents`.
   */
  variant?(config: RuntimeConfig, ctx: DetectionContext): RuntimeVariant;
}

/** What `bosun install` knows about an agent: where a pack goes and how its config files are edited. */
export interface InstallPart {
  installSurface: InstallSurface;
}

/**
 * One coding agent bosun knows, with the parts bosun has for it: the status part (the eight
 * agents `bosun agents` reports), the install part (the runtimes `bosun install` puts a pack
 * into), or both. Each runtime is one module under src/runtimes/ and one entry of the registry.
 */
export type Runtime = { id: string; title: string } & Partial<StatusPart> & Partial<InstallPart>;

/** A runtime with its status part. */
export type StatusRuntime = Runtime & StatusPart;

/** A runtime with its install part. */
export type InstallRuntime = Runtime & InstallPart;

export function hasStatus(runtime: Runtime): runtime is StatusRuntime {
  return runtime.status !== undefined;
}

export function hasInstall(runtime: Runtime): runtime is InstallRuntime {
  return runtime.installSurface !== undefined;
}

export type HeadlessValue = string | boolean;

/**
 * The `bosun.json` `agents.<id>` keys of one runtime with their defaults (the same keys and
 * defaults as Agent Zero's orchestrator config, so skills written for it read them unchanged).
 * The type of each default is the type the key takes; `choices` and `check` narrow string keys.
 */
export interface HeadlessDefaults {
  values: Readonly<Record<string, HeadlessValue>>;
  choices?: Readonly<Record<string, readonly string[]>>;
  /** Returns what is wrong with a value, or null when it is fine. */
  check?: Readonly<Record<string, (value: string) => string | null>>;
}
