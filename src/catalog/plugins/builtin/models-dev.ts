import { applyModelsDev } from "../../models-dev-records.js";
import type { ModelsDevClient } from "../../models-dev-client.js";
import type { BosunPlugin } from "../api.js";

/**
 * models.dev's providers and models (or the list bosun ships, until a download exists). When a
 * download brings new data, the catalog is rebuilt with it.
 */
export function modelsDevPlugin(client: ModelsDevClient): BosunPlugin {
  return {
    name: "models-dev",
    async activate(ctx) {
      await ctx.catalog.transform((editor) => applyModelsDev(editor, client.current().data));
      const stop = client.onRefreshed(() => {
        ctx.catalog.reload().catch((error: unknown) => ctx.log.warn("catalog rebuild after a models.dev download failed", { error: String(error) }));
      });
      ctx.onDispose(stop);
    },
  };
}
