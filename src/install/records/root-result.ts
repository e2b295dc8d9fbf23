import type { RootPlan } from "../plan/plan-types.js";
import type { InstallRoot } from "./root.js";

/** What happened in one root. */
export interface RootResult {
  root: InstallRoot;
  plan: RootPlan;
  /** `planned` (dry run), `unchanged` (nothing to do; nothing was written), `changed`. */
  status: "planned" | "unchanged" | "changed";
  journal: string | null;
  backups: string[];
  /** Interrupted runs found here and rolled back first. */
  recovered: string[];
  /** Dry run: another run is at work here, or was interrupted (a real run waits for it, or rolls it back first). */
  interrupted: boolean;
  outcomes: Map<number, string>;
}

/** A root's result before anything was done there (its own file: a settled reinstall makes one without loading the runner). */
export function rootResult(root: InstallRoot, plan: RootPlan, status: RootResult["status"]): RootResult {
  return { root, plan, status, journal: null, backups: [], recovered: [], interrupted: false, outcomes: new Map() };
}
