/** What `bosun pack import` left out, and why (the report lists each). */
export interface Skipped {
  /** The file, folder, hook or setting (relative to the runtime folder, or `settings.json: env.NAME`). */
  what: string;
  why: string;
}

/** One hook of the imported pack: its file name and its `hooks/<name>.json` content. */
export interface ImportedHook {
  name: string;
  json: { event: string; command: string; timeout?: number; matcher?: string };
  /** Where it came from (`settings.json: hooks.PreToolUse[2]`). */
  from: string;
}
