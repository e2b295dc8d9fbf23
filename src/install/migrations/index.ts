import type { MigrationRecord } from "../records/migration-record.js";
import { firstTimeBaseline } from "./000-first-time-baseline.js";
import { codexHooksFlag } from "./001-codex-hooks-flag.js";

/** The engine's own migrations, in order. Shipped records never change: fix forward with a new id. */
export const ENGINE_MIGRATIONS: readonly MigrationRecord[] = [firstTimeBaseline, codexHooksFlag];
