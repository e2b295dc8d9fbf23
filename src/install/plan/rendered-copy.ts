import { closeSync, fstatSync, openSync, readFileSync } from "node:fs";
import { packStatKey } from "./classify.js";
import { sha256 } from "../apply/file-hash.js";
import { withoutKeys } from "../pack/frontmatter-keys.js";
import type { PackFile } from "../pack/load-pack.js";
import { renderTemplate, type TemplateVars } from "../pack/template.js";
import { resolvePathVars, type TextPathValues } from "./path-vars.js";

/**
 * A pack file installed rewritten (a template, path variables resolved, frontmatter keys left
 * out). Its bytes are made only when needed: `key` is the pack file's stat and a digest of what
 * it is rewritten with, recorded in the manifest like a copy's stat, so a reinstall that finds
 * the same key takes the hash it wrote last time and reads nothing.
 */
export interface RenderedSource {
  kind: "render";
  path: string;
  statKey: string;
  key: string;
  /** The bytes (made once; the pack file must still have the stat it was loaded with). */
  bytes(): Buffer;
}

/** The pack's bytes changed between loading and writing: bosun stops rather than install something unchecked. */
export class PackChangedError extends Error {
  override name = "PackChangedError";
  constructor(readonly path: string) {
    super(`${path} changed while bosun was installing it; run bosun install again`);
  }
}

export function renderedSource(file: PackFile, vars: TemplateVars, paths: TextPathValues, dropKeys: readonly string[]): RenderedSource {
  const template = file.template;
  const uses = {
    template: template ? template.names.map((name) => [name, vars.get(name) ?? null]) : null,
    paths: file.pathVars ? file.pathVars.vars.map((name) => [name, paths[name]]) : null,
    dropKeys,
  };
  let made: Buffer | undefined;
  return {
    kind: "render",
    path: file.path,
    statKey: file.statKey,
    key: `${file.statKey} ${sha256(JSON.stringify(uses)).slice(0, 32)}`,
    bytes: () => {
      if (made) return made;
      const text = template ? renderTemplate(template, vars) : readUnchanged(file);
      const out = withoutKeys(text, dropKeys);
      return (made = Buffer.from(file.pathVars ? resolvePathVars(out, paths) : out, "utf8"));
    },
  };
}

/** A pack file's text: as the load read it, else read again when it still has the stat the load saw. */
function readUnchanged(file: PackFile): string {
  if (file.loaded) return file.loaded.bytes.toString("utf8");
  const fd = openSync(file.path, "r");
  try {
    if (packStatKey(fstatSync(fd)) !== file.statKey) throw new PackChangedError(file.path);
    return readFileSync(fd, "utf8");
  } finally {
    closeSync(fd);
  }
}
