/**
 * The names of bosun's built-in plugins, in the order their transforms replay (builtinPlugins
 * makes them). A plugin folder on disk may not take one of these names: kept apart from the
 * plugins themselves so listing the folders at start loads none of their code.
 */
export const BUILTIN_PLUGIN_NAMES: readonly string[] = ["models-dev", "config-providers", "provider-local", "provider-anthropic", "provider-openrouter", "credentials"];
