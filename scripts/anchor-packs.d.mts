// Types of scripts/anchor-packs.mjs, for the tests that import it.
export interface AnchorPackPin {
  id: "opengsd-gsd-core" | "get-shit-done-cc";
  /** `migrations`: the pack's installer migrations (migrations/<id>.json), written after the import. */
  pack: { name: string; files: string[]; migrations?: Record<string, unknown>[] };
  pkg: string;
  version: string;
  install: string[];
}
export declare const ANCHOR_PACKS: AnchorPackPin[];
export declare function anchorPacksDir(env?: Record<string, string | undefined>): string;
export declare function findAnchorPack(id: AnchorPackPin["id"], env?: Record<string, string | undefined>): { packageDir: string; claudeDir: string } | null;
export declare function installAnchorPack(dir: string, pin: AnchorPackPin): void;
export declare function buildAnchorBosunPack(pin: AnchorPackPin, found: { packageDir: string; claudeDir: string }, env?: Record<string, string | undefined>): string;
