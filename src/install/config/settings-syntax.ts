import { isSkeleton, parseConfig, type ParsedConfig } from "./json-hooks.js";
import { applySetting, removeSetting, settingSlotProblem, type SettingEdit } from "./json-settings.js";
import { parseToml } from "./toml-block.js";
import { applyTomlSetting, removeTomlSetting, tomlLeftEmpty, tomlSettingSlotProblem } from "./toml-settings.js";

/**
 * The two syntaxes a settings file bosun edits may have, by its name: TOML (`config.toml`:
 * whole tables in bosun's markers, toml-settings.ts) or else JSON(C) (values and list entries at
 * a path, json-settings.ts). The settings planner works through this and nothing else, so what it
 * decides (a question for a value of yours, records, exact removal) is the same for both.
 */
export interface SettingsSyntax {
  /** The plan action that rewrites such a file. */
  rewrite: "rewrite-json" | "rewrite-toml";
  parse(text: string): ParsedConfig;
  /** Why the edit cannot go into this file (text null: the file is absent), or null. */
  slotProblem(text: string | null, root: Record<string, unknown>, edit: Pick<SettingEdit, "path" | "mode" | "value">): string | null;
  /** The text with the edit made (null: the file is created), and how many containers it created. */
  apply(text: string | null, edit: Pick<SettingEdit, "path" | "mode" | "value">): { text: string; created: number };
  remove(text: string, edit: SettingEdit): string;
  /** A file bosun created holds nothing else any more (it can be deleted). */
  leftEmpty(text: string): boolean;
}

const JSON_SYNTAX: SettingsSyntax = {
  rewrite: "rewrite-json",
  parse: parseConfig,
  slotProblem: (_text, root, edit) => settingSlotProblem(root, edit),
  apply: applySetting,
  remove: removeSetting,
  leftEmpty: (text) => {
    const parsed = parseConfig(text);
    return parsed.ok && isSkeleton(parsed.value, "nested");
  },
};

const TOML_SYNTAX: SettingsSyntax = {
  rewrite: "rewrite-toml",
  parse: parseToml,
  slotProblem: tomlSettingSlotProblem,
  apply: applyTomlSetting,
  remove: removeTomlSetting,
  leftEmpty: tomlLeftEmpty,
};

/** The syntax of a settings file, by its name. */
export function settingsSyntaxOf(file: string): SettingsSyntax {
  return file.endsWith(".toml") ? TOML_SYNTAX : JSON_SYNTAX;
}
