import { blockedConfigEdit } from "./blocked-config-edit.js";
import { sameSetting, settingAt } from "../config/json-settings.js";
import { isPlainJson } from "../config/plain-json.js";
import { settingsSyntaxOf, type SettingsSyntax } from "../config/settings-syntax.js";
import type { DesiredSetting } from "./desired-settings.js";
import type { Manifest, SettingRecord } from "../records/manifest.js";
import type { ActionOrigin, PlannedAction } from "./plan-types.js";
import type { TreeView } from "./tree-view.js";

export interface SettingsPlanInput {
  view: TreeView;
  manifest: Manifest;
  packName: string;
  settings: readonly DesiredSetting[];
  /** The config files bosun created (shared with the hook edits; updated here). */
  created: Set<string>;
  origin: ActionOrigin;
}

export interface SettingsPlan {
  actions: Omit<PlannedAction, "index">[];
  notes: string[];
  /** Every setting record after this run (other packs' untouched); a conflict's record is on its action. */
  records: SettingRecord[];
}

const EVIDENCE = "settings bosun recorded in bosun-manifest.json, matched by their exact value";

/**
 * The settings edits of one pack in one root, in a JSON(C) file or a TOML one (by its name,
 * settings-syntax.ts: there, whole tables in bosun's markers). A list entry is added when it is not there and
 * recorded (one you already had stays yours, unrecorded); a value is set when the key is absent.
 * A key holding a value of yours that differs is a question, as for a file of yours: keep yours,
 * or back the file up and set the pack's. An entry or value bosun recorded that the pack no longer
 * has is removed, only while it is still exactly what bosun wrote; one you removed stays removed.
 */
export function planSettings(input: SettingsPlanInput): SettingsPlan {
  const settingRecords = input.manifest.config.filter((record): record is SettingRecord => record.kind === "setting");
  const others = settingRecords.filter((record) => record.pack !== input.packName);
  const ours = settingRecords.filter((record) => record.pack === input.packName);
  const plan: SettingsPlan = { actions: [], notes: [], records: [...others] };
  /** This pack's records that leave, file after file (their containers pass to those that stay). */
  const dropped: SettingRecord[] = [];
  const files = [...new Set([...input.settings.map((setting) => setting.file), ...ours.map((record) => record.file)])].sort();
  for (const file of files) {
    const desired = input.settings.filter((setting) => setting.file === file);
    const recorded = ours.filter((record) => record.file === file);
    planSettingsFile(input, plan, dropped, file, desired, recorded);
  }
  return { ...plan, records: handOver(plan.records, dropped) };
}

/** A file's text as its edit is worked out, its syntax, and what the action's reason lists. */
interface FileEdit {
  text: string | null;
  syntax: SettingsSyntax;
  changes: string[];
}

/** A key that holds a value of yours, not the pack's. */
type Conflict = { setting: DesiredSetting; current: unknown };

/**
 * One settings file: refused when the pack's settings are, or the file cannot be parsed or has
 * no room for them (its records kept as they were); else what leaves is removed, what the pack
 * sets is added, and the file rewritten when that changed it, with a question for each conflict.
 */
function planSettingsFile(input: SettingsPlanInput, plan: SettingsPlan, dropped: SettingRecord[], file: string, desired: readonly DesiredSetting[], recorded: readonly SettingRecord[]): void {
  const { view, packName, origin, created } = input;
  const { actions, notes, records } = plan;
  const contract = desired[0]?.contract;
  const refused = desired.find((setting) => setting.refused);
  if (refused) {
    actions.push(blocked(origin, file, `pack.json: ${refused.field}: ${refused.refused}`, contract));
    records.push(...recorded);
    return;
  }
  const taken = takenByOther(input.manifest, packName, file, desired);
  if (taken) {
    actions.push(blocked(origin, file, taken, contract));
    records.push(...recorded);
    return;
  }
  const syntax = settingsSyntaxOf(file);
  const read = readSettings(view, file, syntax);
  if (read.error !== null) {
    actions.push(blocked(origin, file, `${file}: ${read.error}; fix it, then run again (bosun edits only config files it can parse)`, contract));
    records.push(...recorded);
    return;
  }
  const value = (read.value ?? {}) as Record<string, unknown>;
  const slot = desired.map((setting) => syntax.slotProblem(read.text, value, setting)).find((problem) => problem !== null);
  if (slot) {
    actions.push(blocked(origin, file, `${file}: ${slot}; fix it, then run again`, contract));
    records.push(...recorded);
    return;
  }
  const edit: FileEdit = { text: read.text, syntax, changes: [] };
  removeLeaving(edit, dropped, desired, recorded);
  const conflicts = setDesired(edit, records, packName, desired, recorded);
  let text = edit.text;
  if (text !== null && created.has(file) && read.text !== null && syntax.leftEmpty(text)) text = null;
  const plain = desired.find((setting) => setting.plainJsonOnly);
  if (plain && text !== null && !isPlainJson(text)) notes.push(`${file} has comments or trailing commas: ${plain.plainJsonOnly}`);
  if (text !== read.text) {
    view.rewrite(file, text);
    if (read.text === null) created.add(file);
    if (text === null) created.delete(file);
    actions.push({
      origin,
      type: syntax.rewrite,
      rel: file,
      classification: read.text === null ? "missing" : "unknown",
      reason: text === null ? `${file}: removes the file bosun created (nothing else was ever added to it)` : `${file}: ${edit.changes.join(", ")}`,
      evidence: EVIDENCE,
      originalHash: null,
      currentHash: null,
      text,
      ...(contract ? { contract } : {}),
    });
  }
  if (conflicts.length > 0) actions.push(conflictAction(origin, file, text, syntax, conflicts, packName, contract));
}

/**
 * A value another pack installed here set (its record in the manifest) is that pack's: this one
 * may not take it over, nor ask you about it as if it were yours. Two packs with an MCP server of
 * the same name meet here. List entries are shared and never clash.
 */
function takenByOther(manifest: Manifest, packName: string, file: string, desired: readonly DesiredSetting[]): string | null {
  for (const setting of desired) {
    if (setting.mode !== "value") continue;
    const owner = manifest.config.find((record) => record.kind === "setting" && record.pack !== packName && record.file === file && record.mode === "value" && samePath(record.path, setting.path));
    if (!owner || owner.kind !== "setting") continue;
    const server = setting.field.startsWith("mcp/");
    const what = server ? `the MCP server ${setting.path.at(-1)}` : setting.key;
    return `${file}: ${what} belongs to the pack ${owner.pack} installed here; ${packName} (${setting.field}) cannot take it over: uninstall ${owner.pack} first${server ? ", or rename the server in one of the two packs" : ""}`;
  }
  return null;
}

/** 1. What this pack no longer sets goes, while it is exactly what bosun wrote; one you removed stays removed. */
function removeLeaving(edit: FileEdit, dropped: SettingRecord[], desired: readonly DesiredSetting[], recorded: readonly SettingRecord[]): void {
  const isWanted = (record: SettingRecord) => desired.some((setting) => matches(record, setting));
  // A value the pack still sets, to another value: replaced in place by setDesired, not removed here.
  const isChanged = (record: SettingRecord) => record.mode === "value" && desired.some((setting) => setting.mode === "value" && samePath(setting.path, record.path));
  for (const leaving of recorded.filter((entry) => !isWanted(entry) && !isChanged(entry))) {
    // The containers an entry that left before it created are its to remove once empty; not one
    // the pack still puts something in (it stays where it is, keeping the file's key order).
    const record = keepFilled(handOver([leaving], dropped)[0]!, desired);
    dropped.push(leaving);
    if (edit.text === null) continue;
    const now = edit.syntax.parse(edit.text);
    const current = now.ok ? settingAt(now.value, record.path) : undefined;
    const there = record.mode === "entry" ? Array.isArray(current) && current.some((item) => sameSetting(item, record.value)) : current !== undefined && sameSetting(current, record.value);
    if (!there) continue;
    // Its containers go only once empty: another entry in them (of this pack or another) keeps them.
    edit.text = edit.syntax.remove(edit.text, record);
    edit.changes.push(`removes ${describe(record)}`);
  }
}

/** 2. What the pack sets: added, kept, or asked about (the conflicts returned); each kept or added one recorded. */
function setDesired(edit: FileEdit, records: SettingRecord[], packName: string, desired: readonly DesiredSetting[], recorded: readonly SettingRecord[]): Conflict[] {
  const conflicts: Conflict[] = [];
  for (const setting of desired) {
    const before = recorded.find((record) => matches(record, setting));
    const parsed = edit.text === null ? {} : (edit.syntax.parse(edit.text) as { value: Record<string, unknown> }).value;
    const current = settingAt(parsed, setting.path);
    if (setting.mode === "entry") {
      const there = Array.isArray(current) && current.some((item) => sameSetting(item, setting.value));
      // Already there: bosun's (recorded) stays bosun's, yours stays yours; recorded but gone: you removed it.
      if (there || before) {
        if (before) records.push(before);
        continue;
      }
      const added = edit.syntax.apply(edit.text, setting);
      edit.text = added.text;
      records.push(record(packName, setting, added.created));
      edit.changes.push(`adds ${describe(setting)}`);
      continue;
    }
    if (current === undefined) {
      if (before) {
        records.push(before);
        continue;
      }
      const added = edit.syntax.apply(edit.text, setting);
      edit.text = added.text;
      records.push(record(packName, setting, added.created));
      edit.changes.push(`sets ${setting.key}`);
    } else if (sameSetting(current, setting.value)) {
      if (before) records.push(before);
    } else {
      // bosun's old value (an upgrade changed it) is replaced; anything else is yours.
      const previous = recorded.find((entry) => entry.mode === "value" && samePath(entry.path, setting.path) && sameSetting(entry.value, current));
      if (previous) {
        edit.text = edit.syntax.apply(edit.text, setting).text;
        records.push(record(packName, setting, previous.created ?? 0));
        edit.changes.push(`replaces bosun's ${setting.key}`);
      } else conflicts.push({ setting, current });
    }
  }
  return conflicts;
}

/**
 * The question for the keys that hold a value of yours: "remove" backs the file up and sets the
 * pack's values (its `text`); "keep" leaves yours and records nothing.
 */
function conflictAction(origin: ActionOrigin, file: string, text: string | null, syntax: SettingsSyntax, conflicts: Conflict[], packName: string, contract: string | undefined): Omit<PlannedAction, "index"> {
  let next = text;
  const settingRecords: SettingRecord[] = [];
  for (const { setting } of conflicts) {
    next = syntax.apply(next, setting).text;
    settingRecords.push(record(packName, setting, 0));
  }
  const keys = conflicts.map(({ setting }) => setting.key).join(", ");
  const shown = conflicts.map(({ setting, current }) => `${setting.key}: yours ${short(current)}, the pack's ${short(setting.value)}`).join("; ");
  return {
    origin,
    type: "prompt-user",
    rel: file,
    classification: "unknown",
    reason: `${file}: ${keys} already set to another value (${shown})`,
    evidence: EVIDENCE,
    originalHash: null,
    currentHash: null,
    text: next,
    ...(contract ? { contract } : {}),
    prompt: `${file}: ${keys} ${conflicts.length === 1 ? "is" : "are"} yours (${shown}). Keep yours (the pack's is not set), or back the file up and set the pack's?`,
    choices: ["keep", "remove"],
    onRemove: "backup-and-rewrite",
    settingRecords,
  };
}

/** A settings file's text (null: absent) and parsed value, or why it cannot be read or parsed (with the line). */
function readSettings(view: TreeView, file: string, syntax: SettingsSyntax): { text: string | null; value: unknown; error: string | null } {
  const read = view.readText(file);
  if (read.text === null) return { text: null, value: undefined, error: read.error };
  const parsed = syntax.parse(read.text);
  return parsed.ok ? { text: read.text, value: parsed.value, error: null } : { text: read.text, value: undefined, error: `${parsed.problem} at line ${parsed.line}` };
}

function record(pack: string, setting: DesiredSetting, created: number): SettingRecord {
  return { kind: "setting", pack, file: setting.file, path: [...setting.path], mode: setting.mode, value: setting.value, ...(created > 0 ? { created } : {}) };
}

/** The same edit: path, mode, and (for a list entry) the entry; a value record matches its key. */
function matches(record: SettingRecord, setting: DesiredSetting): boolean {
  return record.mode === setting.mode && samePath(record.path, setting.path) && sameSetting(record.value, setting.value);
}

function samePath(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((key, index) => key === b[index]);
}

/** The containers a record's edit sits in (its list, then the objects above), deepest first. */
function containersOf(record: { path: readonly string[]; mode: SettingRecord["mode"] }): string[][] {
  const depth = record.mode === "entry" ? record.path.length : record.path.length - 1;
  return Array.from({ length: depth }, (_, index) => record.path.slice(0, depth - index));
}

/**
 * The containers a leaving record created go to the staying records in them (of any pack), so
 * the last one out takes them, as the first one in made them.
 */
function handOver(records: SettingRecord[], dropped: readonly SettingRecord[]): SettingRecord[] {
  if (dropped.length === 0) return records;
  return records.map((entry) => {
    const chain = containersOf(entry);
    let created = entry.created ?? 0;
    for (const gone of dropped) {
      if (gone.file !== entry.file) continue;
      for (const container of containersOf(gone).slice(0, gone.created ?? 0)) {
        const at = chain.findIndex((mine) => samePath(mine, container));
        if (at !== -1) created = Math.max(created, at + 1);
      }
    }
    return created === (entry.created ?? 0) ? entry : { ...entry, created };
  });
}

/** The record with `created` cut below the first of its containers that a desired setting sits in. */
function keepFilled(record: SettingRecord, desired: readonly DesiredSetting[]): SettingRecord {
  const chain = containersOf(record).slice(0, record.created ?? 0);
  const filled = chain.findIndex((container) => desired.some((setting) => containersOf(setting).some((theirs) => samePath(theirs, container))));
  return filled === -1 ? record : { ...record, created: filled };
}

function describe(setting: { path: readonly string[]; mode: string; value: unknown }): string {
  return setting.mode === "entry" ? `${setting.path.join(".")} entry ${short(setting.value)}` : setting.path.join(".");
}

function short(value: unknown): string {
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

const blocked = (origin: ActionOrigin, file: string, problem: string, contract: string | undefined) => blockedConfigEdit(origin, file, problem, contract, "settings", EVIDENCE);
