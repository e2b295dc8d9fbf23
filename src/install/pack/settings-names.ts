/**
 * The names of a pack's `settings` that install reads without loading the schema library
 * (settings-schema.ts holds the schema itself).
 */

/** `{env:NAME}`: the value of a variable of the user's environment, never the value itself. */
export const ENV_REFERENCE = /^\{env:([A-Za-z_][A-Za-z0-9_]*)\}$/;

/** The permission lists, in the order bosun writes them. */
export const PERMISSION_LISTS = ["allow", "deny", "ask"] as const;
