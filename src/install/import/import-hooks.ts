import type { HookEvent, HookEventNames } from "../../runtimes/kit/hook-events.js";
import { ARTIFACT_NAME } from "../pack/pack-names.js";
import type { ImportedHook, Skipped } from "./import-report.js";

/** The longest hook timeout a pack may give (seconds), as the pack schema says. */
const MAX_TIMEOUT = 600;

export interface HookSource {
  /** The config file, relative to the runtime folder (`settings.json`). */
  file: string;
  /** Its parsed content. */
  config: unknown;
  /** The runtime's names for bosun's events. */
  events: HookEventNames;
  timeoutUnit: "s" | "ms";
  /** Commands bosun wrote there for a pack (the manifest's hook records): never imported. */
  bosunCommands: ReadonlySet<string>;
  rewrite: (command: string) => string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * The hook registrations of a Claude-style config (`hooks.<Event>[].hooks[]`), each as a pack
 * hook on bosun's name for the event. A registration bosun wrote, on an event bosun has no name
 * for, or that is not a command, is skipped with the reason.
 */
export function importHooks(source: HookSource): { hooks: ImportedHook[]; skipped: Skipped[] } {
  const hooks: ImportedHook[] = [];
  const skipped: Skipped[] = [];
  const block = isObject(source.config) ? source.config.hooks : undefined;
  if (!isObject(block)) return { hooks, skipped };
  const canonical = new Map(Object.entries(source.events).map(([event, name]) => [name, event as HookEvent]));
  const names = new Set<string>();
  for (const [runtimeEvent, groups] of Object.entries(block)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group: unknown, index) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((entry: unknown, inner) => {
        const from = `${source.file}: hooks.${runtimeEvent}[${index}].hooks[${inner}]`;
        const event = canonical.get(runtimeEvent);
        if (!isObject(entry) || entry.type !== "command" || typeof entry.command !== "string" || entry.command.trim() === "") return skipped.push({ what: from, why: "not a command hook (bosun's hooks run a command)" });
        if (source.bosunCommands.has(entry.command)) return skipped.push({ what: from, why: "written by bosun for an installed pack (bosun-manifest.json)" });
        if (!event) return skipped.push({ what: from, why: `bosun has no event for ${runtimeEvent}` });
        const command = source.rewrite(entry.command);
        const name = uniqueName(hookBaseName(command, event), event, names);
        const json: ImportedHook["json"] = { event, command };
        const timeout = seconds(entry.timeout, source.timeoutUnit);
        if (timeout !== undefined) json.timeout = timeout;
        if (typeof group.matcher === "string" && group.matcher !== "") json.matcher = group.matcher;
        hooks.push({ name, json, from });
      });
    });
  }
  return { hooks, skipped };
}

/** A timeout in whole seconds within the pack's limit (a runtime in milliseconds is rounded up). */
function seconds(value: unknown, unit: "s" | "ms"): number | undefined {
  if (typeof value !== "number" || !Number.isFinite(value) || value <= 0) return undefined;
  const inSeconds = Math.ceil(unit === "ms" ? value / 1000 : value);
  return Math.min(inSeconds, MAX_TIMEOUT);
}

/** The name of the script the command runs (`gsd-check-update` for `node …/gsd-check-update.js`), else the event's. */
export function hookBaseName(command: string, event: string): string {
  const scripts = [...command.matchAll(/([A-Za-z0-9._-]+)\.(?:js|cjs|mjs|ts|sh|py|rb|bash)\b/g)].map((match) => match[1]!);
  const base = (scripts.at(-1) ?? event).toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 40);
  return ARTIFACT_NAME.test(base) ? base : event;
}

function uniqueName(base: string, event: string, taken: Set<string>): string {
  let name = taken.has(base) ? `${base}-${event}` : base;
  for (let count = 2; taken.has(name); count++) name = `${base}-${event}-${count}`;
  taken.add(name);
  return name;
}
