// Types of scripts/real-clis.mjs, for the tests that import it.
export interface RealCliPin {
  id: "claude" | "codex" | "gemini" | "opencode" | "grok";
  pkg: string;
  version: string;
  bin: string;
}
export declare const REAL_CLIS: RealCliPin[];
export declare function realClisDir(env?: Record<string, string | undefined>): string;
export declare function readRealClis(env?: Record<string, string | undefined>): { dir: string; clis: Partial<Record<RealCliPin["id"], { pkg: string; version: string; bin: string }>> } | null;
