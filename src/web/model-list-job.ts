import type { DashboardSources } from "./sources.js";

/** How the last refresh of the model list from the page ended. */
export interface RefreshOutcome {
  status: string;
  error?: string;
}

/**
 * Refreshing the catalog's model list from the page: one download at a time (a second Refresh
 * joins the first), its start and its end told to `onChange` (the pages get them live), and how
 * the last one ended kept for the pages that open later.
 */
export class ModelListJob {
  private running: Promise<RefreshOutcome> | null = null;
  private lastOutcome: RefreshOutcome | null = null;

  constructor(
    private readonly list: DashboardSources["modelList"],
    private readonly onChange: () => void,
  ) {}

  refreshing(): boolean {
    return this.running !== null;
  }

  last(): RefreshOutcome | null {
    return this.lastOutcome;
  }

  refresh(): Promise<RefreshOutcome> {
    if (this.running) return this.running;
    this.running = this.list
      .refresh()
      .catch((error: unknown): RefreshOutcome => ({ status: "failed", error: error instanceof Error ? error.message : String(error) }))
      .then((outcome) => {
        this.lastOutcome = outcome;
        this.running = null;
        this.onChange();
        return outcome;
      });
    this.onChange();
    return this.running;
  }
}
