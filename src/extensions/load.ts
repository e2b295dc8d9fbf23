import { extname } from "node:path";
import { pathToFileURL } from "node:url";
import { describeError } from "../kernel/errors.js";
import type { ExtensionFile } from "./discover.js";
import { ExtensionError } from "./extension-error.js";

/** An extension is the default-exported function of its file. */
export type ExtensionFunction = (args: object) => unknown;

export interface LoadedExtension extends ExtensionFile {
  run: ExtensionFunction;
}

export type ModuleImporter = (file: string) => Promise<Record<string, unknown>>;

/**
 * Imports an extension file. JavaScript goes through Node's own loader; TypeScript through tsx,
 * which is loaded only when a `.ts` extension exists.
 */
export const importExtensionModule: ModuleImporter = async (file) => {
  if (extname(file) === ".ts") {
    const { tsImport } = await import("tsx/esm/api");
    return (await tsImport(pathToFileURL(file).href, import.meta.url)) as Record<string, unknown>;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
};

export async function loadExtension(found: ExtensionFile, importModule: ModuleImporter): Promise<LoadedExtension> {
  let module: Record<string, unknown>;
  try {
    module = await importModule(found.file);
  } catch (error) {
    throw new ExtensionError(found.file, found.point, `cannot be loaded: ${describeError(error)}`, { cause: error });
  }
  const run = defaultFunction(module);
  if (!run) throw new ExtensionError(found.file, found.point, "must export a default function");
  return { ...found, run };
}

function defaultFunction(module: Record<string, unknown>): ExtensionFunction | undefined {
  const value = module.default;
  if (typeof value === "function") return value as ExtensionFunction;
  // A .ts file outside an ESM package is compiled as CommonJS, which nests the default export.
  const nested = (value as { default?: unknown } | undefined)?.default;
  return typeof nested === "function" ? (nested as ExtensionFunction) : undefined;
}
