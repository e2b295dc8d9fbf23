import { resolve } from "node:path";
import type { ConfigLayer } from "../../kernel/config/config.js";
import { expandHome } from "../../kernel/paths.js";
import { isInside } from "../../kernel/fs/path-inside.js";
import type { SandboxConfig, SandboxMode, SandboxNetwork } from "./sandbox-config-schema.js";

export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
export const DEFAULT_MAX_SESSION_OUTPUT_BYTES = 1024 * 1024 * 1024;
export const DEFAULT_MAX_FILE_BYTES = 1024 * 1024 * 1024;

/** The sandbox a run asks for, from the `sandbox` sections of the config files (paths absolute). */
export interface SandboxSettings {
  mode: SandboxMode;
  network: SandboxNetwork;
  writable: string[];
  readable: string[];
  env: string[];
  limits: SandboxLimits;
  /** Settings a project file asked for and did not get (it may only narrow the sandbox), one line each. */
  ignored: string[];
}

export interface SandboxLimits {
  outputBytes: number;
  sessionOutputBytes: number;
  fileBytes: number;
}

const STRICTNESS: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

/**
 * The sandbox settings of a run. Your own `bosun.json` decides; a project's (which anyone who
 * wrote the repository controls) may only make the sandbox stricter: a looser mode, network on,
 * letting secrets through or making credential files readable are ignored with a line saying so,
 * and its writable folders count only inside the project.
 */
export function sandboxSettings(layers: readonly ConfigLayer<{ sandbox?: SandboxConfig }>[], home: string, projectRoot: string | null): SandboxSettings {
  const settings: SandboxSettings = {
    mode: "auto",
    network: "off",
    writable: [],
    readable: [],
    env: [],
    limits: { outputBytes: DEFAULT_MAX_OUTPUT_BYTES, sessionOutputBytes: DEFAULT_MAX_SESSION_OUTPUT_BYTES, fileBytes: DEFAULT_MAX_FILE_BYTES },
    ignored: [],
  };
  for (const layer of layers) {
    const section = layer.value.sandbox;
    if (!section) continue;
    const trusted = layer.scope === "global";
    const ignore = (what: string) => settings.ignored.push(`${layer.file}: sandbox.${what} is ignored: a project's bosun.json may only make the sandbox stricter (set it in your own bosun.json)`);
    if (section.mode) {
      if (trusted || STRICTNESS[section.mode] >= STRICTNESS[settings.mode]) settings.mode = section.mode;
      else ignore(`mode "${section.mode}"`);
    }
    if (section.network) {
      if (trusted || section.network === "off") settings.network = section.network;
      else ignore(`network "on"`);
    }
    for (const path of section.writable ?? []) {
      const absolute = resolve(expandHome(path, home));
      if (trusted || (projectRoot !== null && isInside(absolute, projectRoot))) settings.writable.push(absolute);
      else ignore(`writable ${JSON.stringify(path)} (outside the project)`);
    }
    if (section.readable?.length) {
      if (trusted) settings.readable.push(...section.readable.map((path) => resolve(expandHome(path, home))));
      else ignore("readable");
    }
    if (section.env?.length) {
      if (trusted) settings.env.push(...section.env);
      else ignore("env");
    }
    const limits = settings.limits;
    const narrower = (current: number, asked: number | undefined) => (asked === undefined ? current : trusted ? asked : Math.min(current, asked));
    limits.outputBytes = narrower(limits.outputBytes, section.max_output_bytes);
    limits.sessionOutputBytes = narrower(limits.sessionOutputBytes, section.max_session_output_bytes);
    limits.fileBytes = narrower(limits.fileBytes, section.max_file_bytes);
  }
  settings.writable = [...new Set(settings.writable)];
  settings.readable = [...new Set(settings.readable)];
  settings.env = [...new Set(settings.env)];
  return settings;
}
