/** What completes a value: fixed words (`commaList`: a list of them, `claude,codex`), folders, or both. */
export interface Values {
  words?: readonly string[];
  commaList?: boolean;
  directories?: boolean;
}

export interface CompletionOption {
  /** The short and long forms, e.g. `["-y", "--yes"]`. */
  flags: string[];
  description: string;
  /** Whether the flag takes a value (`--scope local`); then `values` completes it. */
  takesValue: boolean;
  values: Values;
}

export interface CompletionArgument {
  name: string;
  required: boolean;
  variadic: boolean;
  values: Values;
}

/** One command of the tree a completion script is generated from. */
export interface CompletionCommand {
  /** The words that lead to it, `[]` for bosun itself, `["agents", "login"]`. */
  path: string[];
  description: string;
  options: CompletionOption[];
  arguments: CompletionArgument[];
  subcommands: CompletionCommand[];
}

/** The shells bosun writes completion scripts for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
export type Shell = (typeof SHELLS)[number];
