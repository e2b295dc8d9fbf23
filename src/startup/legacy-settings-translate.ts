import { JsoncEditor, type JsonPath as Path } from "./jsonc-edit.js";
import { LEGACY_SETTINGS_KEYS, VALUE_SHAPES, type LegacyKeyRule } from "./legacy-settings-keys.js";

export interface SettingsTranslation {
  /** The translated text; the input itself when no rule applied. */
  text: string;
  /** What was translated, one entry per old key: `defaultModel → model`. */
  changes: string[];
  /** Old keys a rule names but could not translate, each with why (they stay as they were). */
  kept: string[];
}

/**
 * Applies the key table to the text of a JSONC settings file holding an object (its BOM removed).
 * Every change is an edit of the text (see `JsoncEditor`), so the user's comments and layout stay.
 */
export function translateLegacySettings(text: string, rules: LegacyKeyRule[] = LEGACY_SETTINGS_KEYS): SettingsTranslation {
  const doc = new JsoncEditor(text);
  const result: SettingsTranslation = { text, changes: [], kept: [] };
  for (const rule of rules) {
    if ("rename" in rule) rename(doc, rule, result);
    else if ("join" in rule) join(doc, rule, result);
    else if ("names" in rule) names(doc, rule, result);
    else wrap(doc, rule, result);
  }
  result.text = doc.text;
  return result;
}

function rename(doc: JsoncEditor, rule: Extract<LegacyKeyRule, { rename: string }>, result: SettingsTranslation): void {
  for (const { path, stars } of doc.matches(rule.rename)) {
    const to = fill(rule.to, stars);
    const old = doc.valueAt(path);
    const value = rule.values ? (typeof old === "string" && Object.hasOwn(rule.values, old) ? rule.values[old] : undefined) : old;
    const problem = value === undefined || !VALUE_SHAPES[rule.shape](value) ? `its value is not one ${dotted(to)} takes` : doc.blocker(to);
    if (problem) result.kept.push(`${dotted(path)}: ${problem}`);
    else {
      doc.move(path, to, value);
      result.changes.push(`${dotted(path)} → ${dotted(to)}`);
    }
  }
}

function join(doc: JsoncEditor, rule: Extract<LegacyKeyRule, { join: unknown }>, result: SettingsTranslation): void {
  const [first, second] = rule.join.map((key) => [key]) as [Path, Path];
  const to = rule.to.split(".");
  const parts = [doc.valueAt(first), doc.valueAt(second)];
  if (parts.every((part) => part === undefined)) return;
  const value = parts.join("/");
  const problem = parts.some((part) => typeof part !== "string")
    ? `needs both ${rule.join.join(" and ")} as text`
    : !VALUE_SHAPES.model(value)
      ? `"${value}" is not a provider/model`
      : doc.blocker(to);
  if (problem) return void result.kept.push(`${rule.join.join(" + ")}: ${problem}`);
  doc.move(first, to, value);
  doc.remove(second);
  result.changes.push(`${rule.join.join(" + ")} → ${rule.to}`);
}

function names(doc: JsoncEditor, rule: Extract<LegacyKeyRule, { names: string }>, result: SettingsTranslation): void {
  const path = rule.names.split(".");
  const list = doc.valueAt(path);
  if (list === undefined) return;
  const targets = VALUE_SHAPES["plugin-names"](list) ? [...new Set(list as string[])].map((name) => fill(rule.to, [name])) : null;
  const problem = targets ? targets.map((target) => doc.blocker(target)).find(Boolean) : "its value is not a list of plugin names";
  if (problem || !targets) return void result.kept.push(`${rule.names}: ${problem}`);
  doc.remove(path);
  for (const target of targets) doc.set(target, rule.value);
  result.changes.push(`${rule.names} → ${targets.length > 0 ? targets.map(dotted).join(", ") : "nothing (the list was empty)"}`);
}

function wrap(doc: JsoncEditor, rule: Extract<LegacyKeyRule, { wrap: string }>, result: SettingsTranslation): void {
  for (const { path } of doc.matches(rule.wrap)) {
    const value = doc.valueAt(path);
    if (!VALUE_SHAPES[rule.shape](value)) continue;
    doc.set(path, { [rule.key]: value });
    result.changes.push(`${dotted(path)} → ${dotted([...path, rule.key])}`);
  }
}

function fill(pattern: string, stars: string[]): Path {
  let next = 0;
  return pattern.split(".").map((part) => (part === "*" ? (stars[next++] ?? "*") : part));
}

function dotted(path: Path): string {
  return path.join(".");
}
