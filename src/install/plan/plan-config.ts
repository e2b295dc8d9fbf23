import { isSkip, type HookRegistration, type InstallLayout, type RetiredTomlBlock, type TomlBlock } from "../../runtimes/kit/install-types.js";
import { blockedConfigEdit } from "./blocked-config-edit.js";
import { addHookEntries, EVENT_PATH_DEPTH, hasHookEntry, hookSlotProblem, isSkeleton, parseConfig, removeHookEntries } from "../config/json-hooks.js";
import { isPlainJson } from "../config/plain-json.js";
import { addTomlBlock, findTomlBlock, parseToml, tomlValueAt, withoutTomlBlock } from "../config/toml-block.js";
import type { DesiredSetting } from "./desired-settings.js";
import type { DesiredHook, DesiredInstall } from "./desired.js";
import type { ConfigRecord, HookEntryRecord, Manifest } from "../records/manifest.js";
import { planSettings } from "./plan-settings.js";
import type { ActionOrigin, PlannedAction } from "./plan-types.js";
import type { TreeView } from "./tree-view.js";

export interface ConfigPlanInput {
  view: TreeView;
  manifest: Manifest;
  packName: string;
  hooks: readonly DesiredHook[];
  /** The pack's settings edits in this root (plan-settings.ts). */
  settings?: readonly DesiredSetting[];
  toml: DesiredInstall["toml"];
  layout: InstallLayout;
  origin: ActionOrigin;
}

export interface ConfigPlan {
  actions: Omit<PlannedAction, "index">[];
  notes: string[];
  /** Every config entry recorded after this run (other packs' untouched). */
  records: ConfigRecord[];
  createdFiles: string[];
}

const EVIDENCE = "entries bosun recorded in bosun-manifest.json, matched by their exact command";

/** The hook registration of a runtime that registers hooks in a config file. */
type ConfigRegister = Extract<HookRegistration, { kind: "config" }>;

/** What the steps of one pack's config plan add to, in the order they run. */
interface ConfigDraft {
  actions: Omit<PlannedAction, "index">[];
  notes: string[];
  records: ConfigRecord[];
  /** The files bosun created, as this plan leaves them. */
  created: Set<string>;
}

/**
 * The config edits for one pack in one root: its hook registrations added, changed or removed
 * (only entries bosun recorded, matched by their exact command), and bosun's TOML block written
 * while any pack has hooks here. An entry you deleted stays deleted. A config bosun cannot parse
 * blocks the install, naming the file and line.
 */
export function planConfig(input: ConfigPlanInput): ConfigPlan {
  const { view, packName, origin } = input;
  const others = input.manifest.config.filter((record) => record.kind === "hook" && record.pack !== packName);
  const draft: ConfigDraft = { actions: [], notes: [], records: [...others], created: new Set(input.manifest.createdFiles) };
  const placement = isSkip(input.layout.hooks) ? null : input.layout.hooks;
  const dropped = planHookFiles(input, draft, placement?.register.kind === "config" ? placement.register : null);

  // The pack's settings fragments, in the same files as its hooks or others.
  const settings = planSettings({ view, manifest: input.manifest, packName, settings: input.settings ?? [], created: draft.created, origin });
  draft.actions.push(...settings.actions);
  draft.notes.push(...settings.notes);
  draft.records.push(...settings.records);

  if (placement?.toml) planTomlBlock(input, draft, placement.toml, input.hooks.length > 0 || others.length > 0);
  else if (placement?.retiredToml) planRetiredToml(input, draft, placement.retiredToml);
  // A file bosun created that is gone now (a migration deleted it, or you did) is no longer one it created.
  const createdFiles = [...draft.created].filter((file) => view.look(file).kind !== "absent").sort();
  return { actions: draft.actions, notes: draft.notes, records: handOverContainers(draft.records, dropped), createdFiles };
}

/**
 * The pack's hook entries, file by file in name order: each desired hook goes to the first of
 * its candidate files that exists, else where it was, else the first. Returns the entries of
 * this pack that leave the config (removed now, or gone already).
 */
function planHookFiles(input: ConfigPlanInput, draft: ConfigDraft, register: ConfigRegister | null): HookEntryRecord[] {
  const { view, packName } = input;
  const ours = input.manifest.config.filter((record): record is HookEntryRecord => record.kind === "hook" && record.pack === packName);
  const fileFor = (hook: DesiredHook) => {
    const existing = hook.files.find((file) => view.look(file).kind === "file");
    return existing ?? ours.find((record) => record.hook === hook.hook)?.file ?? (hook.files[0] as string);
  };
  const desiredByFile = new Map<string, DesiredHook[]>();
  for (const hook of input.hooks) {
    const file = fileFor(hook);
    desiredByFile.set(file, [...(desiredByFile.get(file) ?? []), hook]);
  }
  const dropped: HookEntryRecord[] = [];
  const files = new Set([...desiredByFile.keys(), ...ours.map((record) => record.file)]);
  for (const file of [...files].sort()) {
    const recorded = ours.filter((record) => record.file === file);
    dropped.push(...planHookFile(input, draft, register, file, desiredByFile.get(file) ?? [], recorded));
  }
  return dropped;
}

/**
 * One config file's hook entries: the recorded ones no longer wanted removed, the wanted ones
 * missing added (unless recorded: then you removed them), the file rewritten when that changed
 * it. A file bosun cannot parse or edit blocks the install and keeps its records as they were.
 * Returns the recorded entries that leave it.
 */
function planHookFile(input: ConfigPlanInput, draft: ConfigDraft, register: ConfigRegister | null, file: string, desired: readonly DesiredHook[], recorded: readonly HookEntryRecord[]): HookEntryRecord[] {
  const { view, origin } = input;
  const { actions, notes, records, created } = draft;
  const read = view.readJson(file);
  const wanted = (record: { event: string; command: string }) => desired.some((hook) => hook.event === record.event && hook.command === record.command);
  if (read.error !== null) {
    if (desired.length > 0 || recorded.length > 0) actions.push(blocked(origin, file, `${file}: ${read.error}; fix it, then run again (bosun edits only config files it can parse)`, register?.contract));
    records.push(...recorded);
    return [];
  }
  const value = (read.value ?? {}) as Record<string, unknown>;
  // Checked before anything is compared, so a fresh install and an upgrade refuse alike.
  const slotProblem = desired.map((hook) => hookSlotProblem(value, hook.event)).find((problem) => problem !== null);
  if (slotProblem) {
    actions.push(blocked(origin, file, `${file}: ${slotProblem}; fix it, then run again`, register?.contract));
    records.push(...recorded);
    return [];
  }
  const present = (event: string, command: string) => read.text !== null && hasHookEntry(value, register?.format ?? "nested", event, command);
  const format = register?.format ?? "nested";
  const dropped = recorded.filter((record) => !wanted(record));
  const toRemove = recorded.filter((record) => !wanted(record) && present(record.event, record.command));
  const toAdd = desired.filter((hook) => {
    if (present(hook.event, hook.command)) return false;
    // Recorded but gone from the file: you removed it, so it stays removed.
    return !recorded.some((record) => record.event === hook.event && record.command === hook.command);
  });
  let text: string | null = read.text;
  const createdDepth = new Map<DesiredHook, { created: number; inner: string | null }>();
  try {
    if (text !== null && toRemove.length > 0) text = removeHookEntries(text, format, toRemove);
    if (toAdd.length > 0) {
      const added = addHookEntries(text, format, toAdd);
      text = added.text;
      toAdd.forEach((hook, index) => createdDepth.set(hook, { created: added.created[index] ?? 0, inner: added.inner[index] ?? null }));
    }
  } catch (error) {
    actions.push(blocked(origin, file, `${file}: ${(error as Error).message}; fix it, then run again`, register?.contract));
    records.push(...recorded);
    return dropped;
  }
  if (text !== null && register?.plainJsonOnly && desired.length > 0 && !isPlainJson(text)) {
    notes.push(`${file} has comments or trailing commas: ${register.plainJsonOnly}`);
  }
  if (text !== null && created.has(file) && read.text !== null) {
    const parsed = parseConfig(text);
    if (parsed.ok && isSkeleton(parsed.value, format)) text = null;
  }
  if (text !== read.text) {
    view.rewrite(file, text);
    if (read.text === null) created.add(file);
    if (text === null) created.delete(file);
    const what = [toAdd.length > 0 ? `adds ${describeHooks(toAdd)}` : "", toRemove.length > 0 ? `removes ${describeHooks(toRemove)}` : ""].filter(Boolean).join(", ");
    actions.push({
      origin,
      type: "rewrite-json",
      rel: file,
      classification: read.text === null ? "missing" : "unknown",
      reason: text === null ? `${file}: removes the file bosun created (nothing else was ever added to it)` : `${file}: ${what}`,
      evidence: EVIDENCE,
      originalHash: null,
      currentHash: null,
      text,
      contract: register?.contract as string,
    });
  }
  records.push(...hookRecords(input.packName, file, desired, recorded, createdDepth));
  return dropped;
}

/** The records of the desired hooks in one file: the containers an entry created, from this edit or as recorded before. */
function hookRecords(packName: string, file: string, desired: readonly DesiredHook[], recorded: readonly HookEntryRecord[], createdDepth: ReadonlyMap<DesiredHook, { created: number; inner: string | null }>): HookEntryRecord[] {
  return desired.map((hook) => {
    const before = recorded.find((record) => record.event === hook.event && record.command === hook.command);
    const added = createdDepth.get(hook);
    const created = added ? added.created : before?.created;
    const emptyInner = added ? added.inner : before?.emptyInner;
    return {
      kind: "hook",
      pack: packName,
      hook: hook.hook,
      file,
      event: hook.event,
      command: hook.command,
      ...(created === undefined ? {} : { created }),
      ...(emptyInner ? { emptyInner } : {}),
    };
  });
}

/** The TOML block (Codex): present while any pack has hooks in this root, unless you set its setting yourself. */
function planTomlBlock(input: ConfigPlanInput, draft: ConfigDraft, block: TomlBlock, needed: boolean): void {
  const { view, origin } = input;
  const { actions, notes, records, created } = draft;
  const read = view.readText(block.file);
  const hasBlock = read.text !== null && findTomlBlock(read.text) !== null;
  if (needed && !hasBlock) {
    const parsed = read.text === null ? { ok: true as const, value: {} } : parseToml(read.text);
    if (read.error !== null) notes.push(`${block.file}: ${read.error}; bosun did not add ${block.lines.join(", ")} to it`);
    else if (!parsed.ok) notes.push(`${block.file}: ${parsed.problem} at line ${parsed.line}; bosun did not add ${block.lines.join(", ")} to it`);
    else if (tomlValueAt(parsed.value, block.satisfiedBy.path) !== block.satisfiedBy.value) {
      const text = addTomlBlock(read.text, block.lines);
      if (!parseToml(text).ok) {
        notes.push(`${block.file} already has a [${block.satisfiedBy.path.slice(0, -1).join(".")}] table; add ${block.satisfiedBy.path.at(-1)} = ${JSON.stringify(block.satisfiedBy.value)} to it yourself so the runtime runs hooks`);
      } else {
        view.rewrite(block.file, text);
        if (read.text === null) created.add(block.file);
        actions.push({ origin, type: "rewrite-toml", rel: block.file, classification: read.text === null ? "missing" : "unknown", reason: `${block.file}: adds bosun's block (${block.lines.join(", ")})`, evidence: "bosun's own marked block", originalHash: null, currentHash: null, text, contract: block.contract });
        records.push({ kind: "toml-block", file: block.file });
      }
    }
  } else if (!needed && hasBlock && read.text !== null) {
    const text = withoutTomlBlock(read.text, created.has(block.file));
    view.rewrite(block.file, text);
    if (text === null) created.delete(block.file);
    actions.push({ origin, type: "rewrite-toml", rel: block.file, classification: "unknown", reason: `${block.file}: removes bosun's block`, evidence: "bosun's own marked block", originalHash: null, currentHash: null, text, contract: block.contract });
  } else if (needed && hasBlock) {
    records.push({ kind: "toml-block", file: block.file });
    // A file edited since into one that does not parse is reported as on a first install: the runtime reads none of it.
    const parsed = parseToml(read.text as string);
    if (!parsed.ok) notes.push(`${block.file}: ${parsed.problem} at line ${parsed.line}; bosun's block (${block.lines.join(", ")}) is in it, but the runtime cannot read the file until you fix it`);
  }
}

/** A block bosun wrote for an older version of the runtime, which this one does not want (Codex's hooks flag). */
function planRetiredToml(input: ConfigPlanInput, draft: ConfigDraft, retired: RetiredTomlBlock): void {
  const { view, origin } = input;
  const read = view.readText(retired.file);
  if (read.text !== null && findTomlBlock(read.text) !== null) {
    const text = withoutTomlBlock(read.text, draft.created.has(retired.file));
    view.rewrite(retired.file, text);
    if (text === null) draft.created.delete(retired.file);
    draft.actions.push({ origin, type: "rewrite-toml", rel: retired.file, classification: "unknown", reason: `${retired.file}: removes bosun's block (${retired.why})`, evidence: "bosun's own marked block", originalHash: null, currentHash: null, text, contract: retired.contract });
  }
}

/**
 * The containers a leaving entry had created (`hooks`, the event's list) may still hold bosun's
 * other entries there, of this pack or another: those take them over, so the containers go with
 * the last of them (and a config file bosun created with it), as they would have with the first.
 * The event's list goes to the entries on the same event; `hooks` also to those on another event
 * in the same file that created their own event's list (then no list in it is yours).
 */
function handOverContainers(records: ConfigRecord[], dropped: readonly HookEntryRecord[]): ConfigRecord[] {
  if (dropped.length === 0) return records;
  return records.map((record) => {
    if (record.kind !== "hook" || record.created === undefined) return record;
    let from: HookEntryRecord | undefined;
    for (const entry of dropped) {
      if (entry.file === record.file && entry.event === record.event && entry.created !== undefined && entry.created > (from?.created ?? (record.created as number))) from = entry;
    }
    if (from) return { ...record, created: from.created as number, ...(record.emptyInner || !from.emptyInner ? {} : { emptyInner: from.emptyInner }) };
    if (record.created === 0 || record.created >= EVENT_PATH_DEPTH) return record;
    const hooksFrom = dropped.find((entry) => entry.file === record.file && entry.created !== undefined && entry.created >= EVENT_PATH_DEPTH);
    if (!hooksFrom) return record;
    // What the file's top object held while empty is put back when `hooks` leaves it.
    const { emptyInner: _inner, ...rest } = record;
    return { ...rest, created: EVENT_PATH_DEPTH, ...(hooksFrom.emptyInner ? { emptyInner: hooksFrom.emptyInner } : {}) };
  });
}


const blocked = (origin: ActionOrigin, file: string, problem: string, contract: string | undefined) => blockedConfigEdit(origin, file, problem, contract, "hook registration", EVIDENCE);


/** `the SessionStart hook`, `the SessionStart hook and the Stop hook`, or else `18 hooks (SessionStart ×2, PreToolUse ×8, Stop…)`. */
export function describeHooks(hooks: readonly { event: string }[]): string {
  const counts = new Map<string, number>();
  for (const { event } of hooks) counts.set(event, (counts.get(event) ?? 0) + 1);
  if (hooks.length <= 2 && counts.size === hooks.length) return hooks.map((hook) => `the ${hook.event} hook`).join(" and ");
  return `${hooks.length} hooks (${[...counts].map(([event, count]) => (count === 1 ? event : `${event} ×${count}`)).join(", ")})`;
}
