import { Argument, type Command, type Option } from "commander";
import { packageRoot } from "../kernel/package-info.js";
import type { Choice } from "../install/records/migration-record.js";
import type { Output } from "./output.js";
import { SHELLS, type CompletionCommand, type CompletionOption, type Shell, type Values } from "./completion-tree.js";

/**
 * Where the values of a flag (by its long name) or of a command's argument (`agents login
 * <agent>`) come from, when commander has no choices for it: bosun's own registries, read when a
 * script is generated, so the script offers what this build of bosun accepts. A key that names
 * no flag or argument (one renamed since) only completes less; completion.test.ts catches it.
 */
export const VALUE_SOURCES: Record<string, () => Promise<Values>> = {
  "--runtime": async () => ({ words: (await import("../runtimes/registry.js")).listInstallRuntimes().map((runtime) => runtime.id), commaList: true }),
  "--scope": async () => ({ words: (await import("../runtimes/kit/install-types.js")).INSTALL_SCOPES }),
  "--resolve": async () => ({ words: RESOLVE_CHOICES }),
  "--mode": async () => ({ words: (await import("../agent/approval/approval-policy.js")).APPROVAL_MODES }),
  "--provider": async () => ({ words: Object.keys(await embeddedProviders()) }),
  "--model": async () => ({ words: modelIds(await embeddedProviders()) }),
  "--config-dir": async () => ({ directories: true }),
  "agents login <agent>": async () => ({ words: (await agentIds()).login }),
  "agents disconnect <agent>": async () => ({ words: (await agentIds()).all }),
  "auth set <provider>": async () => ({ words: Object.keys(await embeddedProviders()) }),
  "auth remove <provider>": async () => ({ words: Object.keys(await embeddedProviders()) }),
  "policy check <action>": async () => ({ words: (await import("../catalog/policy.js")).POLICY_ACTIONS }),
  "policy check <resource>": async () => {
    const providers = await embeddedProviders();
    return { words: [...Object.keys(providers), ...modelIds(providers)] };
  },
  "install <pack>": async () => ({ directories: true }),
  // bosun's own pack by name, or a pack folder.
  "uninstall <pack>": async () => ({ words: [await ownPackName()], directories: true }),
};

const RESOLVE_CHOICES = ["keep", "remove"] as const satisfies readonly Choice[];

export function registerCompletion(program: Command, output: Output): void {
  program
    .command("completion")
    .description("print a shell completion script for bosun's commands, flags and their values")
    .addArgument(new Argument("<shell>", "bash, zsh or fish").choices(SHELLS))
    .addHelpText("after", "\nInstall (then open a new shell; regenerate after upgrading bosun):\n  bash  bosun completion bash > ~/.local/share/bash-completion/completions/bosun\n  zsh   bosun completion zsh > ~/.zfunc/_bosun   (with fpath=(~/.zfunc $fpath) before compinit in ~/.zshrc)\n  fish  bosun completion fish > ~/.config/fish/completions/bosun.fish")
    .action(async (shell: Shell) => {
      const tree = await completionTree(program);
      const scripts = await import("./completion-scripts.js");
      output.stdout.write(scripts.completionScript(shell, tree));
    });
}

/** The command tree as `--help` shows it (visible commands and flags, commander's help command), with the values each takes. */
async function completionTree(command: Command, path: string[] = [], parent?: Command): Promise<CompletionCommand> {
  const help = command.createHelp();
  const subcommands = help.visibleCommands(command);
  return {
    path,
    description: oneLine(command.summary() || command.description()),
    options: await Promise.all(help.visibleOptions(command).map((option) => completionOption(option))),
    arguments: await Promise.all(
      command.registeredArguments.map(async (argument) => ({
        name: argument.name(),
        required: argument.required,
        variadic: argument.variadic,
        values: await argumentValues(command, parent, path, argument),
      })),
    ),
    subcommands: await Promise.all(subcommands.map((sub) => completionTree(sub, [...path, sub.name()], command))),
  };
}

async function completionOption(option: Option): Promise<CompletionOption> {
  const takesValue = option.required || option.optional;
  const source = option.long ? VALUE_SOURCES[option.long] : undefined;
  return {
    flags: [option.short, option.long].filter((flag): flag is string => flag !== undefined),
    description: oneLine(option.description),
    takesValue,
    values: !takesValue ? {} : option.argChoices ? { words: option.argChoices } : source ? await source() : {},
  };
}

async function argumentValues(command: Command, parent: Command | undefined, path: string[], argument: Argument): Promise<Values> {
  if (argument.argChoices) return { words: argument.argChoices };
  // commander's own `help [command]` (not among its parent's commands) takes a command beside it.
  if (parent && command.name() === "help" && !parent.commands.includes(command)) return { words: parent.commands.map((sub) => sub.name()) };
  const source = VALUE_SOURCES[`${path.join(" ")} <${argument.name()}>`];
  return source ? source() : {};
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

async function embeddedProviders() {
  const { readEmbeddedProviders } = await import("../catalog/embedded-providers.js");
  return readEmbeddedProviders(packageRoot());
}

function modelIds(providers: Awaited<ReturnType<typeof embeddedProviders>>): string[] {
  return Object.entries(providers).flatMap(([provider, entry]) => Object.keys(entry.models).map((model) => `${provider}/${model}`));
}

async function agentIds(): Promise<{ all: string[]; login: string[] }> {
  const runtimes = (await import("../runtimes/registry.js")).listRuntimes();
  return { all: runtimes.map((runtime) => runtime.id), login: runtimes.filter((runtime) => runtime.status.supportsDeviceLogin()).map((runtime) => runtime.id) };
}

async function ownPackName(): Promise<string> {
  const [{ readFile }, { join }, { bundledPackDir }] = await Promise.all([import("node:fs/promises"), import("node:path"), import("../install/install-pack.js")]);
  return (JSON.parse(await readFile(join(bundledPackDir(packageRoot()), "pack.json"), "utf8")) as { name: string }).name;
}
