import { defineConfig } from "vitest/config";
import { anchorPacksDir } from "./scripts/anchor-packs.mjs";
import { realClisDir } from "./scripts/real-clis.mjs";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    // Where `node scripts/real-clis.mjs install` put the pinned CLIs, found from the real home
    // before test/setup.ts points HOME and XDG_CACHE_HOME at a throwaway folder.
    // The same for `node scripts/anchor-packs.mjs install`'s anchor packages.
    env: { BOSUN_REAL_CLIS_DIR: realClisDir(), BOSUN_PACKS_DIR: anchorPacksDir() },
  },
});
