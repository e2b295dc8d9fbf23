import type { CatalogTransform } from "../../catalog.js";
import type { BosunPlugin } from "../api.js";

/** A plugin that is one catalog transform (the provider tweaks, config providers). */
export function transformPlugin(name: string, transform: CatalogTransform): BosunPlugin {
  return {
    name,
    async activate(ctx) {
      await ctx.catalog.transform(transform);
    },
  };
}
