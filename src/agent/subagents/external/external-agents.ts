import type { ExternalKind } from "../kinds.js";
import type { HeadlessConfig } from "./commands.js";

/**
 * A kind ready to run: its program, its `agents.<id>` settings, and the folders (and single files)
 * it writes as it runs (its config, sessions, caches), which a sandbox leaves writable; or why it
 * cannot run.
 */
export type PreparedKind = { ok: true; binary: string; config: HeadlessConfig; writes: { folders: string[]; files: string[] } } | { ok: false; problem: string };

/**
 * What a host gives an agent tree so that its tasks can run the user's own agent CLIs: whether a
 * kind is installed and signed in (the same truth `bosun agents` shows), its headless settings,
 * the environment the CLIs run with (the user's, keys included: a CLI needs its own), and the
 * catalog's prices for the models they report.
 */
export interface ExternalAgents {
  prepare(kind: ExternalKind, signal: AbortSignal): Promise<PreparedKind>;
  env: Readonly<Record<string, string | undefined>>;
  /** USD of one call of `model` (as the CLI names it), or null when the catalog does not know it. */
  price(kind: ExternalKind, model: string | undefined, usage: { input: number; output: number }): number | null;
}
