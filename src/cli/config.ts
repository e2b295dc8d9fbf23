import type { Command } from "commander";
import { describeWarning } from "../kernel/config/config-warning.js";
import { displayPath } from "../kernel/paths.js";
import { UserError } from "../kernel/errors.js";
import { bootForCommand } from "./boot.js";
import { columns, styler, writeJson, writeLine, type Output } from "./output.js";

/** `bosun config check` found problems; each was printed on its own line before. */
export class ConfigCheckFailed extends UserError {
  override name = "ConfigCheckFailed";
  constructor(
    readonly errors: number,
    readonly warnings: number,
  ) {
    super(`the config has ${count(errors, "error")} and ${count(warnings, "warning")} (listed above)`);
  }
}

export function registerConfig(program: Command, output: Output): void {
  const config = program
    .command("config")
    .description("the merged configuration, with the file and line each value came from, and its warnings")
    .option("--json", "print it as JSON")
    .action(async (options: { json?: boolean }) => showConfig(options, output));

  config
    .command("check")
    .description("check every config file: one line per error or warning, exit 1 if there is any")
    .option("--json", "print the problems as JSON")
    .action(async (options: { json?: boolean }) => checkConfig(options, output));
}

async function showConfig(options: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output, {}, { printWarnings: false });
  const [{ configEntries }, { redactConfig, REDACTED }] = await Promise.all([import("../kernel/config/config-origins.js"), import("../kernel/config/config-redact.js")]);
  // Secrets are redacted before anything is listed, so no output can show one.
  const config = boot.config && { ...boot.config, value: redactConfig(boot.config.value) as typeof boot.config.value };
  const entries = config ? configEntries(config) : [];
  const files = boot.configSources.map(({ scope, file, exists }) => ({ scope, file, exists }));
  if (options.json) return writeJson(output, { files, value: config?.value ?? {}, keys: entries, warnings: boot.warnings });

  const style = styler(output);
  const show = (path: string) => displayPath(path, boot.paths.home);
  const lines = [style("bold", "Files"), ...columns(files.map((file) => [file.scope, show(file.file), file.exists ? "" : style("dim", "none")])), ""];
  lines.push(style("bold", files.length > 1 ? "Values (project over global)" : "Values"));
  if (entries.length === 0) lines.push(`  ${style("dim", "none: no config file sets anything")}`);
  else {
    const shown = (value: unknown) => (value === REDACTED ? style("dim", REDACTED) : JSON.stringify(value));
    lines.push(...columns(entries.map((entry) => [entry.key, shown(entry.value), style("dim", `${show(entry.file)}:${entry.line}`)])));
  }
  if (boot.warnings.length > 0) {
    lines.push("", style("bold", "Warnings"), ...boot.warnings.map((warning) => `  ${style("yellow", "!")} ${describeWarning(warning, show)}`));
  }
  for (const line of lines) writeLine(output.stdout, line);
}

/**
 * Every error and warning of every config file, not only the first: a start stops at the first
 * error, so the files are read here without the start's validation.
 */
async function checkConfig(options: { json?: boolean }, output: Output): Promise<void> {
  const boot = await bootForCommand(output, { skipConfig: true }, { printWarnings: false });
  const [{ checkConfigFiles }, { loadConfigSchema }] = await Promise.all([import("../kernel/config/config.js"), import("../app/start.js")]);
  const result = await checkConfigFiles(boot.configSources, loadConfigSchema);
  const warnings = [...boot.warnings, ...result.warnings];
  const files = boot.configSources.filter((source) => source.exists).map((source) => source.file);
  if (options.json) {
    const errors = result.errors.map(({ file, line, field, problem }) => ({ file, line, field, problem }));
    writeJson(output, { ok: errors.length === 0 && warnings.length === 0, files, errors, warnings });
  } else {
    const style = styler(output);
    for (const error of result.errors) writeLine(output.stdout, `${style("red", "error")}: ${error.message}`);
    for (const warning of warnings) writeLine(output.stdout, `${style("yellow", "warning")}: ${describeWarning(warning)}`);
    if (result.errors.length === 0 && warnings.length === 0) {
      const show = (path: string) => displayPath(path, boot.paths.home);
      writeLine(output.stdout, files.length > 0 ? `${style("green", "ok")}: no problems in ${files.map(show).join(", ")}` : `${style("green", "ok")}: no config file to check`);
    }
  }
  if (result.errors.length > 0 || warnings.length > 0) throw new ConfigCheckFailed(result.errors.length, warnings.length);
}

function count(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}
