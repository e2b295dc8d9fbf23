import type { ExtensionPointArgs, ExtensionPointName } from "../extensions/points.js";

/**
 * The points of `EXTENSION_POINTS` whose arguments nobody declared. The subsystems declare them
 * by module augmentation next to their types (startup/runner.ts, agent/hooks.ts); the app, which
 * sees every subsystem, checks that none is missing.
 */
type Undeclared = Exclude<ExtensionPointName, keyof ExtensionPointArgs>;

/** Does not compile while a point is named without saying what its extensions get. */
export const EVERY_POINT_DECLARED: [Undeclared] extends [never] ? true : { undeclared: Undeclared } = true;
