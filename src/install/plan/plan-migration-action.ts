import { classifyInspection } from "./classify.js";
import type { MigrationAction } from "../records/migration-record.js";
import type { ActionOrigin, PlannedAction } from "./plan-types.js";
import type { TreeView } from "./tree-view.js";

/** A migration's action with the downgrade rules applied, and its effect laid over the view. */
export function planMigrationAction(action: MigrationAction, origin: ActionOrigin, view: TreeView): Omit<PlannedAction, "index"> {
  const rel = action.relPath;
  // Not a path: pack `rel` leaves the manifest, its files and entries now `toRelPath`'s (succession.ts).
  if (action.type === "succeed-pack") {
    const to = action.toRelPath as string;
    view.succeed(rel, to);
    return { origin, rel, toRel: to, type: "succeed-pack", classification: "managed-pristine", reason: action.reason ?? "", evidence: action.ownershipEvidence ?? null, originalHash: null, currentHash: null };
  }
  // A file the baseline declares yours is recorded without being opened, let alone hashed.
  if (action.type === "baseline-preserve-user" && action.classification) {
    return { origin, rel, type: action.type, classification: action.classification, reason: action.reason ?? "", evidence: null, originalHash: null, currentHash: null };
  }
  const looked = view.look(rel);
  const originalHash = view.manifest.files[rel] ?? null;
  const classification = action.classification ?? classifyInspection(view.manifest.files[rel], looked);
  const base = {
    origin,
    rel,
    classification,
    reason: action.reason ?? (origin.kind === "migration" ? origin.title : ""),
    evidence: action.ownershipEvidence ?? null,
    originalHash,
    currentHash: looked.hash,
  };
  if (looked.problem) return { ...base, type: action.type, blocked: looked.problem };
  switch (action.type) {
    case "remove-managed":
    case "backup-and-remove": {
      if (looked.kind === "absent") {
        view.dropEntry(rel);
        return { ...base, type: "forget", requestedType: action.type, reason: `${base.reason} (already gone)` };
      }
      if (looked.kind === "dir") return { ...base, type: action.type, blocked: `${rel} is a folder; a migration removes files one by one` };
      if (classification === "unknown") {
        return { ...base, type: "preserve-user", requestedType: action.type, prompt: `${rel} is not bosun's (not in its manifest), but ${describeOrigin(origin)} would remove it. Keep it, or back it up and remove it?`, choices: ["keep", "remove"], onRemove: "backup-and-remove" };
      }
      const type = classification === "managed-modified" || looked.kind === "symlink" ? "backup-and-remove" : action.type;
      view.remove(rel);
      return { ...base, type, ...(type !== action.type ? { requestedType: action.type } : {}) };
    }
    case "move-managed": {
      const to = action.toRelPath as string;
      const target = view.look(to);
      if (looked.kind === "absent") {
        view.dropEntry(rel);
        return { ...base, type: "forget", requestedType: "move-managed", toRel: to, reason: `${base.reason} (already gone)` };
      }
      if (target.problem) return { ...base, type: "move-managed", toRel: to, blocked: target.problem };
      if (target.kind !== "absent") return { ...base, type: "move-managed", toRel: to, blocked: `${to} already exists; move it away, then run again` };
      if (looked.kind === "dir") return { ...base, type: "move-managed", toRel: to, blocked: `${rel} is a folder; a migration moves files one by one` };
      if (classification === "unknown") {
        return { ...base, type: "preserve-user", requestedType: "move-managed", toRel: to, prompt: `${rel} is not bosun's (not in its manifest), but ${describeOrigin(origin)} would move it to ${to}. Keep it where it is, or move it?`, choices: ["keep", "remove"], onRemove: "move-managed" };
      }
      view.move(rel, to);
      return { ...base, type: "move-managed", toRel: to };
    }
    case "remove-empty-dir": {
      if (looked.kind === "absent") return { ...base, type: "forget", requestedType: "remove-empty-dir", reason: `${base.reason} (already gone)` };
      if (looked.kind !== "dir") return { ...base, type: "baseline-preserve-user", requestedType: "remove-empty-dir", reason: `${rel} is not a folder; left in place` };
      return { ...base, type: "remove-empty-dir" };
    }
    case "rewrite-json":
    case "rewrite-toml": {
      if (looked.kind !== "absent" && looked.kind !== "file") return { ...base, type: action.type, blocked: `${rel} is not a regular file` };
      view.rewrite(rel, action.text ?? null);
      return { ...base, type: action.type, text: action.text ?? null, contract: action.contract as string };
    }
    case "prompt-user":
    case "preserve-user":
      if (looked.kind === "absent") return { ...base, type: "forget", requestedType: action.type, reason: `${base.reason} (already gone)` };
      return { ...base, type: action.type, prompt: action.prompt ?? `${rel}: keep it, or back it up and remove it?`, choices: action.choices ?? ["keep", "remove"], onRemove: "backup-and-remove" };
    case "record-baseline":
    case "baseline-preserve-user":
      return { ...base, type: action.type };
  }
}


function describeOrigin(origin: ActionOrigin): string {
  return origin.kind === "migration" ? `migration ${origin.id}` : `pack ${origin.name}`;
}
