import { isSkip } from "../../runtimes/kit/install-types.js";
import { findTomlBlock, withoutTomlBlock } from "../config/toml-block.js";
import type { MigrationAction, MigrationContext, MigrationRecord } from "../records/migration-record.js";

const FLAG = "features.codex_hooks";

/**
 * bosun 0.1.0 wrote `features.codex_hooks = true` in a marked block at the top of Codex's
 * config.toml for every Codex. Codex 0.124 turned hooks on by default and 0.130 deprecated the
 * key: 0.171 reports it as an error item on every `codex exec`. For a Codex that does not want it
 * (the layout in force retires the block), this takes bosun's block out once.
 *
 * Retires: only the text between bosun's markers, and only when it holds the flag; every line of
 * yours stays byte for byte (a file bosun created and left empty goes). Ownership: bosun's own
 * markers. Gone already, or never written (you had set the flag yourself): nothing to do. For a
 * Codex older than 0.124 the block stays (the layout still wants it). Both scopes; no question,
 * so it is safe without a terminal. The planner keeps the block in step with Codex's version
 * after that (a later downgrade writes it again, the next upgrade removes it again).
 */
export const codexHooksFlag: MigrationRecord = {
  id: "2026-12-01-codex-hooks-flag",
  title: "Retire Codex's deprecated hooks flag",
  description: "Remove bosun's features.codex_hooks block from config.toml for Codex 0.124 and newer, which runs hooks without it and warns about the key.",
  introducedIn: "0.1.0",
  runtimes: ["codex"],
  scopes: ["global", "local"],
  destructive: true,
  runtimeContracts: ["codex.features"],
  source: "engine",
  data: { file: "config.toml", line: `${FLAG} = true`, contract: "codex.features" },
  plan(ctx: MigrationContext): MigrationAction[] {
    if (ctx.rootKey !== "main" || isSkip(ctx.layout.hooks) || !ctx.layout.hooks.retiredToml) return [];
    const { file, contract, why } = ctx.layout.hooks.retiredToml;
    const read = ctx.readText(file);
    if (read.text === null) return [];
    const block = findTomlBlock(read.text);
    if (!block || !read.text.slice(block.start, block.end).includes(FLAG)) return [];
    return [
      {
        type: "rewrite-toml",
        relPath: file,
        text: withoutTomlBlock(read.text, ctx.manifest.createdFiles.includes(file)),
        contract,
        reason: `removes bosun's block (${FLAG} = true): ${why}`,
        ownershipEvidence: "bosun's own marked block (# >>> bosun … # <<< bosun); nothing outside it changes",
      },
    ];
  },
};
