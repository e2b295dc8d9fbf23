import type { InstallOutcome } from "./install-pack.js";
import { effectiveType } from "./plan/next-state.js";
import type { PackAudit } from "./audit/pack-audit.js";
import { isBlocked, needsChoice, type PlannedAction } from "./plan/plan-types.js";
import type { RootResult } from "./records/root-result.js";
import type { CliTarget } from "./run-install.js";

/**
 * Risk groups of a plan, least to most: what stays, what bosun replaces (its own unchanged files),
 * what it adds, moves, edits in your config files (its own entries only), removes (files it no
 * longer ships), backs up (your edits, before replacing or removing them), what needs your
 * choice, and what blocks the install. `unchanged` holds bookkeeping (baseline records, paths
 * already gone).
 */
export const REPORT_GROUPS = ["kept", "replaced", "added", "moved", "config", "removed", "backed-up", "needs-choice", "blocked", "unchanged"] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

export const GROUP_LABELS: Record<ReportGroup, string> = {
  kept: "kept",
  replaced: "replaced (unchanged files)",
  added: "added (new files)",
  moved: "moved (renamed)",
  config: "config (bosun's own entries)",
  removed: "removed (retired)",
  "backed-up": "backed up (your edits)",
  "needs-choice": "needs your choice",
  blocked: "blocked",
  unchanged: "recorded",
};

export function groupOf(action: PlannedAction): ReportGroup {
  if (isBlocked(action)) return "blocked";
  if (needsChoice(action) && action.resolution === undefined) return "needs-choice";
  switch (effectiveType(action)) {
    case "write-file":
      return "added";
    case "replace-file":
      return "replaced";
    case "backup-and-replace":
    case "backup-and-remove":
    case "backup-and-rewrite":
      return "backed-up";
    case "remove-managed":
    case "remove-empty-dir":
      return "removed";
    case "move-managed":
    case "succeed-pack":
      return "moved";
    case "rewrite-json":
    case "rewrite-toml":
      return "config";
    case "record-baseline":
    case "forget":
      return "unchanged";
    default:
      return "kept";
  }
}

/** One action as `--json` shows it. */
export interface ActionReport {
  group: ReportGroup;
  type: string;
  path: string;
  to?: string;
  reason: string;
  /** The migration that planned it (absent: the pack itself). */
  migration?: string;
  evidence?: string;
  choices?: string[];
  resolution?: string;
  blocked?: string;
  /** After a run: done, removed, missing, skipped-not-empty, left-in-place, kept. */
  outcome?: string;
}

export interface RootReport {
  dir: string;
  key: string;
  status: RootResult["status"];
  counts: Record<ReportGroup, number>;
  /** Every action except the quiet groups (kept, unchanged), which are only counted. */
  actions: ActionReport[];
  migrations: { id: string; source: string; title: string; actions: number }[];
  drift: { id: string; source: string; stored: string; current: string }[];
  journal: string | null;
  backups: string[];
  recovered: string[];
  interrupted: boolean;
  notes: string[];
}

export interface TargetReport {
  runtime: string;
  title: string;
  scope: string;
  roots: RootReport[];
  skipped: { kind: string; name: string; reason: string }[];
  notes: string[];
  /**
   * The runtime's CLI (runtimes whose config depends on its version): where it is, its version
   * and how bosun read it, and the versions the contract bosun wrote is for. Absent otherwise.
   */
  cli?: { path: string | null; version: string | null; from: "package.json" | "--version" | null; contract: string };
}

/** `bosun install --json` / `bosun uninstall --json`. */
export interface InstallReport {
  mode: "install" | "uninstall";
  dryRun: boolean;
  pack: { name: string; version: string | null; dir: string | null };
  targets: TargetReport[];
  helper: { path: string; installed: boolean } | null;
  /** What the pack will run in the agents, and what changed since the install before (pack-audit.ts); null for an uninstall, or when not built. */
  audit: PackAudit | null;
  notes: string[];
  warnings: string[];
}

/** The report of a run; `audit` is built from the plan before it is applied (pack-audit-inputs.ts). */
export function buildInstallReport(outcome: InstallOutcome, dryRun: boolean, audit: PackAudit | null = null): InstallReport {
  return {
    mode: outcome.mode,
    dryRun,
    pack: { name: outcome.pack.name, version: outcome.pack.version, dir: outcome.pack.dir },
    targets: outcome.result.targets.map(({ target, roots }) => ({
      runtime: target.runtime.id,
      title: target.runtime.title,
      scope: target.scope,
      roots: roots.map(rootReport),
      skipped: target.desired?.skipped ?? [],
      notes: target.desired?.notes ?? [],
      ...(target.cli ? { cli: cliReport(target.cli) } : {}),
    })),
    helper: outcome.result.helper,
    audit,
    notes: outcome.notes,
    warnings: outcome.result.warnings,
  };
}

function cliReport(cli: CliTarget): NonNullable<TargetReport["cli"]> {
  const { reading } = cli;
  return {
    path: reading.kind === "absent" ? null : reading.path,
    version: reading.kind === "read" ? reading.version : null,
    from: reading.kind === "read" ? reading.from : null,
    contract: cli.span,
  };
}

function rootReport(result: RootResult): RootReport {
  const counts = Object.fromEntries(REPORT_GROUPS.map((group) => [group, 0])) as Record<ReportGroup, number>;
  const actions: ActionReport[] = [];
  for (const action of result.plan.actions) {
    const group = groupOf(action);
    counts[group]++;
    if (group === "kept" || group === "unchanged") continue;
    const outcome = result.outcomes.get(action.index);
    actions.push({
      group,
      type: effectiveType(action),
      path: action.rel,
      ...(action.toRel ? { to: action.toRel } : {}),
      reason: action.reason,
      ...(action.origin.kind === "migration" ? { migration: action.origin.id } : {}),
      ...(action.evidence ? { evidence: action.evidence } : {}),
      ...(action.choices ? { choices: action.choices } : {}),
      ...(action.resolution ? { resolution: action.resolution } : {}),
      ...(action.blocked ? { blocked: action.blocked } : {}),
      ...(outcome ? { outcome } : {}),
    });
  }
  return {
    dir: result.root.dir,
    key: result.root.key,
    status: result.status,
    counts,
    actions,
    migrations: result.plan.pending.map((pending) => ({ id: pending.record.id, source: pending.record.source, title: pending.record.title, actions: pending.actions })),
    drift: result.plan.drift,
    journal: result.journal,
    backups: result.backups,
    recovered: result.recovered,
    interrupted: result.interrupted,
    notes: result.plan.notes,
  };
}
