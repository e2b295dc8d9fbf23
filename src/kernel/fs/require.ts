import { createRequire } from "node:module";

/**
 * Loads a CommonJS dependency synchronously, on first use. Startup migrations are synchronous and
 * most runs need none of these libraries, so they are not imported at start-up.
 */
export const requireLazily = createRequire(import.meta.url);
