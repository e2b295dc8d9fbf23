import type { Boot } from "./start.js";
import { NoModelError, type ModelSource } from "../llm/model-source.js";
import { parseModelSpec, PROVIDER_PACKAGES, type ModelTarget, type ProviderPackage } from "../llm/model-target.js";

/** The development variable that describes one model, in place of the catalog. */
export const DEV_MODEL_ENV = "BOSUN_DEV_MODEL";

/**
 * The model source for the CLI: the catalog of the current directory (`bosun models`). For
 * development, the variable BOSUN_DEV_MODEL (JSON) describes one model field by field instead,
 * and is then the only model bosun uses:
 *
 *   BOSUN_DEV_MODEL='{"provider":"ollama","model":"qwen3:8b","npm":"@ai-sdk/openai-compatible",
 *                     "baseURL":"http://127.0.0.1:11434/v1","context":32768,"output":4096}'
 *   optional: "name", "apiKeyEnv" (the env var holding the key), "headers", "toolCall" (default true)
 */
export async function createModelSource(boot: Boot): Promise<ModelSource> {
  const raw = boot.env[DEV_MODEL_ENV];
  if (!raw) return (await import("./catalog-model-source.js")).createCatalogModelSource(boot);
  const target = parseDevModel(raw, boot.env);
  const credentialEnvVars = target.credentialHint?.env ?? [];
  return {
    credentialEnvVars,
    storedCredentials: async () => [],
    resolve: async (spec) => {
      if (spec !== undefined) {
        const wanted = parseModelSpec(spec);
        if (!wanted) throw new NoModelError(`--model takes provider/model (e.g. ${target.providerID}/${target.modelID}), not ${JSON.stringify(spec)}`);
        if (wanted.providerID !== target.providerID || wanted.modelID !== target.modelID) {
          throw new NoModelError(`model ${spec} is not available: with ${DEV_MODEL_ENV} set, bosun knows only ${target.providerID}/${target.modelID}`);
        }
      }
      return target;
    },
  };
}

/** Reads BOSUN_DEV_MODEL; every problem is one error naming the field. */
export function parseDevModel(raw: string, env: Record<string, string | undefined>): ModelTarget {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    throw new NoModelError(`${DEV_MODEL_ENV} is not valid JSON`);
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new NoModelError(`${DEV_MODEL_ENV} must be a JSON object`);
  const bad = (field: string, problem: string) => new NoModelError(`${DEV_MODEL_ENV}.${field}: ${problem}`);
  const text = (field: string, required: boolean): string | undefined => {
    const v = value[field];
    if (v === undefined && !required) return undefined;
    if (typeof v !== "string" || v.trim() === "") throw bad(field, "expected a non-empty string");
    return v;
  };
  const count = (field: string): number => {
    const v = value[field];
    if (typeof v !== "number" || !Number.isInteger(v) || v <= 0) throw bad(field, "expected a positive whole number of tokens");
    return v;
  };
  const known = new Set(["provider", "model", "name", "npm", "baseURL", "apiKeyEnv", "headers", "context", "output", "toolCall"]);
  const unknown = Object.keys(value).find((key) => !known.has(key));
  if (unknown) throw bad(unknown, "unknown field");
  const npm = text("npm", true)!;
  if (!(PROVIDER_PACKAGES as readonly string[]).includes(npm)) throw bad("npm", `expected one of ${PROVIDER_PACKAGES.join(", ")}`);
  const headers = value.headers ?? {};
  if (typeof headers !== "object" || headers === null || Array.isArray(headers) || Object.values(headers).some((h) => typeof h !== "string")) {
    throw bad("headers", "expected an object of strings");
  }
  if (value.toolCall !== undefined && typeof value.toolCall !== "boolean") throw bad("toolCall", "expected true or false");
  const apiKeyEnv = text("apiKeyEnv", false);
  const providerID = text("provider", true)!;
  const modelID = text("model", true)!;
  const baseURL = text("baseURL", false);
  const apiKey = apiKeyEnv ? env[apiKeyEnv] : undefined;
  return {
    providerID,
    modelID,
    name: text("name", false) ?? modelID,
    npm: npm as ProviderPackage,
    ...(baseURL ? { baseURL, baseURLOrigin: `set by ${DEV_MODEL_ENV}` } : {}),
    headers: headers as Record<string, string>,
    ...(apiKey ? { apiKey } : {}),
    credentialHint: apiKeyEnv ? { env: [apiKeyEnv] } : npm === "@ai-sdk/openai-compatible" ? null : { env: [] },
    limits: { context: count("context"), output: count("output") },
    toolCall: value.toolCall !== false,
  };
}
