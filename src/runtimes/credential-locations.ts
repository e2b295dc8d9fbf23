import { join, resolve } from "node:path";
import { expandHome, type BosunPaths, type Env } from "../kernel/paths.js";
import { mergeCredentialLocations } from "./kit/adapter.js";
import { runtimeConfig, type AgentsConfig } from "./collect-status.js";
import { envPath } from "./kit/detect/env.js";
import { machineDetectionContext } from "./kit/machine.js";
import { listRuntimes } from "./registry.js";
import { listSshPrivateKeys } from "./kit/ssh-private-keys.js";
import type { CredentialLocations, DetectionContext } from "./kit/types.js";

/**
 * One list of every credential location bosun knows of, for the sandbox bosun's own tools run
 * in: each agent's (from the same constants and path functions its sign-in check uses, so the
 * two cannot drift) and the well-known ones of other tools. Nothing is read here.
 */

type Places = Pick<DetectionContext, "env" | "home" | "cwd">;

/** Where a variable points (trimmed, `~` expanded, relative to the working folder), when set. */
function overridden(ctx: Places, variable: string): string[] {
  return [envPath(ctx.env, variable, ctx.home, ctx.cwd) ?? []].flat();
}

/** A place a variable may move, and its default: both are listed. */
function movable(ctx: Places, variable: string, fallback: string): string[] {
  return [...overridden(ctx, variable), fallback];
}

/** `$KUBECONFIG` is a `:`-separated list of files, each merged into kubectl's configuration. */
function kubeconfigFiles(ctx: Places): string[] {
  const listed = (ctx.env.KUBECONFIG ?? "").split(":").filter((path) => path.trim() !== "");
  return [...listed.map((path) => resolve(ctx.cwd, expandHome(path.trim(), ctx.home))), join(ctx.home, ".kube", "config")];
}

/**
 * Credentials of tools other than the agents, which a tool bosun runs has no business reading.
 * Each at its default place and where its tool's own variable moves it; sorted, without repeats.
 */
export function otherToolsCredentialLocations(ctx: Places): CredentialLocations {
  const { home } = ctx;
  const xdgConfig = movable(ctx, "XDG_CONFIG_HOME", join(home, ".config"));
  const aws = join(home, ".aws");
  const gcloud = movable(ctx, "CLOUDSDK_CONFIG", join(home, ".config", "gcloud"));
  const files = [
    // Logins and passwords per host, for curl, git over HTTPS, ftp and Python's netrc.
    join(home, ".netrc"),
    // git's credential store: passwords and tokens in plain text, in either of its two places.
    join(home, ".git-credentials"),
    ...xdgConfig.map((dir) => join(dir, "git", "credentials")),
    // AWS access keys and session tokens of every profile.
    ...movable(ctx, "AWS_SHARED_CREDENTIALS_FILE", join(aws, "credentials")),
    // The GitHub CLI's OAuth tokens (when it has no keyring).
    ...[...overridden(ctx, "GH_CONFIG_DIR"), ...xdgConfig.map((dir) => join(dir, "gh"))].map((dir) => join(dir, "hosts.yml")),
    // Docker registry logins (base64 user:password, or identity tokens).
    ...movable(ctx, "DOCKER_CONFIG", join(home, ".docker")).map((dir) => join(dir, "config.json")),
    // Kubernetes cluster credentials: client keys, tokens, exec plugins' settings.
    ...kubeconfigFiles(ctx),
    // npm registry auth tokens (npm reads its variables in either case).
    ...overridden(ctx, "NPM_CONFIG_USERCONFIG"),
    ...movable(ctx, "npm_config_userconfig", join(home, ".npmrc")),
    // PyPI upload tokens and passwords (twine, setuptools).
    join(home, ".pypirc"),
    // gcloud's stored refresh tokens, cached access tokens and Application Default Credentials.
    ...gcloud.flatMap((dir) => ["credentials.db", "access_tokens.db", "application_default_credentials.json"].map((name) => join(dir, name))),
  ];
  const folders = [
    // AWS SSO access tokens and the CLI's cached role credentials.
    join(aws, "sso", "cache"),
    join(aws, "cli", "cache"),
    // gcloud's per-account keys from older versions.
    ...gcloud.map((dir) => join(dir, "legacy_credentials")),
  ];
  return mergeCredentialLocations({ files, folders, env: [] });
}

/**
 * The union over every runtime (each with its `bosun.json` section) and the other tools' places:
 * deduplicated and sorted. SSH private keys are not in it: naming them lists a folder
 * (`listSshPrivateKeys`; `credentialLocationsFor` adds them).
 */
export function allCredentialLocations(configs: AgentsConfig, ctx: DetectionContext): CredentialLocations {
  const runtimes = listRuntimes().map((runtime) => runtime.status.credentialLocations(runtimeConfig(configs, runtime.id), ctx));
  return mergeCredentialLocations(...runtimes, otherToolsCredentialLocations(ctx));
}

/**
 * Every credential location on this machine for a started bosun: the places as the agents see
 * the environment (`agentEnv`) and as bosun's own tools inherit it (`env`, with bosun's `.env`),
 * at their defaults, and the SSH private keys found in `~/.ssh`.
 */
export interface StartedMachine {
  /** The environment as the agents see it (without bosun's `.env`). */
  agentEnv: Env;
  /** bosun's own environment, as its tools inherit it. */
  env: Env;
  paths: BosunPaths;
  /** `bosun.json` as loaded; only `agents` is read. */
  config: { value: { agents?: AgentsConfig } } | null;
}

export function credentialLocationsFor(boot: StartedMachine, cwd: string = process.cwd()): CredentialLocations {
  const configs = boot.config?.value.agents;
  const seen = [boot.agentEnv, boot.env].map((env) => allCredentialLocations(configs, machineDetectionContext(env, boot.paths, cwd)));
  return mergeCredentialLocations(...seen, { files: listSshPrivateKeys(boot.paths.home), folders: [], env: [] });
}
