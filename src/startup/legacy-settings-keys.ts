/**
 * How the keys of the old `~/.bosun/settings.json` map onto today's `bosun.json`, oldest names
 * first. Paths are dotted; `*` matches any key and stands for the same key in `to`. A rule applies
 * only when the old value has the shape the current key takes (`VALUE_SHAPES`), so a translation
 * never turns an old key into a wrong value of a current one; whatever no rule takes stays as it
 * was and is reported as an unknown key. Documented in the README under `10_legacy_layout`.
 */
export type LegacyKeyRule =
  /** The value moves to `to` unchanged (or through `values`, old spelling → current one). */
  | { rename: string; to: string; shape: ValueShape; values?: Record<string, string> }
  /** Two settings become one `model`: `provider/name`. */
  | { join: [provider: string, name: string]; to: string }
  /** A list of plugin names becomes `<to, * = name>: value` for each name. */
  | { names: string; to: string; value: boolean }
  /** A bare value becomes the one key of an object (`plugins.x: false` → `plugins.x.enabled`). */
  | { wrap: string; key: string; shape: ValueShape };

export const LEGACY_SETTINGS_KEYS: LegacyKeyRule[] = [
  // The default model was two settings, then one in snake case, then one in camel case.
  { join: ["chat_model_provider", "chat_model_name"], to: "model" },
  { rename: "default_model", to: "model", shape: "model" },
  { rename: "defaultModel", to: "model", shape: "model" },
  { rename: "disabledProviders", to: "disabled_providers", shape: "provider-ids" },
  // Providers of one's own were `custom_providers`, with snake-case fields.
  { rename: "custom_providers", to: "providers", shape: "object" },
  { rename: "providers.*.base_url", to: "providers.*.baseURL", shape: "url" },
  { rename: "providers.*.api_key", to: "providers.*.apiKey", shape: "text" },
  { rename: "providers.*.env_vars", to: "providers.*.env", shape: "env-names" },
  // The agent's approval mode had other names for its modes; secret variables had their own key.
  { rename: "approval_mode", to: "permissions.mode", shape: "text", values: { suggest: "ask", ask: "ask", auto: "auto-edit", "auto-edit": "auto-edit", full: "full-access", "full-access": "full-access" } },
  { rename: "secret_env", to: "secrets", shape: "env-names" },
  // Plugins were switched with lists, then with a bare boolean per plugin.
  { names: "disabled_plugins", to: "plugins.*.enabled", value: false },
  { names: "enabled_plugins", to: "plugins.*.enabled", value: true },
  { wrap: "plugins.*", key: "enabled", shape: "boolean" },
];

/**
 * The shapes of the current keys these rules write, as `src/app/config-schema.ts` and the
 * sections it imports check them (a test holds the two together): they decide, key by key and
 * without zod, whether a rule applies. `10_legacy_layout` then checks the whole translated file
 * against the schema itself before making it the config.
 */
export const VALUE_SHAPES = {
  model: (value: unknown) => typeof value === "string" && /^[A-Za-z0-9][A-Za-z0-9._-]*\/\S+$/.test(value),
  url: (value: unknown) => typeof value === "string" && /^https?:\/\/[^\s/]+/.test(value) && URL.canParse(value),
  text: (value: unknown) => typeof value === "string" && value !== "",
  boolean: (value: unknown) => typeof value === "boolean",
  object: (value: unknown) => typeof value === "object" && value !== null && !Array.isArray(value),
  "provider-ids": (value: unknown) => isListOf(value, /^[A-Za-z0-9][A-Za-z0-9._-]*$/),
  "env-names": (value: unknown) => isListOf(value, /^[A-Za-z_][A-Za-z0-9_]*$/),
  "plugin-names": (value: unknown) => isListOf(value, /^[a-z0-9][a-z0-9._-]*$/),
} satisfies Record<string, (value: unknown) => boolean>;

export type ValueShape = keyof typeof VALUE_SHAPES;

function isListOf(value: unknown, name: RegExp): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === "string" && name.test(item));
}
