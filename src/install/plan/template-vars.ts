import type { HeadlessValue } from "../../runtimes/kit/types.js";
import { listRuntimes } from "../../runtimes/registry.js";
import type { TemplateVars } from "../pack/template.js";

const FIXED_NAMES = new Set(["bosun.version", "bosun.hook", "runtime.id", "runtime.title", "scope", "pack.name", "pack.version"]);

/**
 * The values a pack template may use: `agents.<id>.<key>` (the headless defaults of `bosun.json`
 * `agents`, with the user's values over them), `bosun.version`, `bosun.hook` (the command that
 * runs bosun's hook helper), `runtime.id`, `runtime.title`, `scope`, `pack.name`, `pack.version`.
 */
export function isKnownTemplateName(name: string): boolean {
  if (FIXED_NAMES.has(name)) return true;
  const match = /^agents\.([a-z0-9]+)\.([a-z_]+)$/.exec(name);
  if (!match) return false;
  const runtime = listRuntimes().find((candidate) => candidate.id === match[1]);
  return runtime !== undefined && match[2]! in runtime.headless.values;
}

export interface TemplateInputs {
  agents: Record<string, Record<string, HeadlessValue>>;
  bosunVersion: string;
  hookCommand: string;
  runtime: { id: string; title: string };
  scope: string;
  pack: { name: string; version: string };
}

export function templateVars(inputs: TemplateInputs): TemplateVars {
  const vars = new Map<string, string | boolean>([
    ["bosun.version", inputs.bosunVersion],
    ["bosun.hook", inputs.hookCommand],
    ["runtime.id", inputs.runtime.id],
    ["runtime.title", inputs.runtime.title],
    ["scope", inputs.scope],
    ["pack.name", inputs.pack.name],
    ["pack.version", inputs.pack.version],
  ]);
  for (const [id, values] of Object.entries(inputs.agents)) for (const [key, value] of Object.entries(values)) vars.set(`agents.${id}.${key}`, value);
  return vars;
}
