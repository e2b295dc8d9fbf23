import { existsSync, lstatSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse as parseToml } from "smol-toml";
import type { AgentFormat, CommandFormat } from "../../runtimes/kit/install-types.js";
import { parseFrontmatter, renderFrontmatter } from "../pack/frontmatter.js";
import { ARTIFACT_NAME } from "../pack/pack-names.js";
import { readOut, walkFolder, type OutFile, type WalkOptions } from "./import-walk.js";

/** A folder of the runtime holding one kind of artifact: where it is, and its path from the runtime folder for the report. */
export interface ArtifactFolder {
  dir: string;
  rel: string;
}

type Common = Pick<WalkOptions, "rewrite" | "owned" | "skipped">;

const isDir = (path: string) => existsSync(path) && lstatSync(path).isDirectory();

/** Why a file's frontmatter would not load as a pack artifact (null: it loads). */
function frontmatterProblem(text: string, file: string): string | null {
  try {
    const { data, body } = parseFrontmatter(text, file);
    if (typeof data.description !== "string" || data.description.trim() === "") return "its frontmatter has no description";
    if (body.trim() === "") return "it has nothing after its frontmatter";
    return null;
  } catch (error) {
    return (error as Error).message.replace(`${file}`, "").replace(/^:\d*:?\s*/, "");
  }
}

/** Each skill folder (`<name>/SKILL.md` and its files) as `skills/<name>/…`. */
export function importSkills(folder: ArtifactFolder, common: Common): { names: string[]; files: OutFile[] } {
  const names: string[] = [];
  const files: OutFile[] = [];
  if (!isDir(folder.dir)) return { names, files };
  for (const name of readdirSync(folder.dir).sort()) {
    const rel = `${folder.rel}/${name}`;
    const path = join(folder.dir, name);
    if (name.startsWith(".")) {
      common.skipped.push({ what: rel, why: "the runtime's own (a dot-folder)" });
      continue;
    }
    if (!lstatSync(path).isDirectory()) continue;
    const problem = skillProblem(path, name, rel, common.owned);
    if (problem) {
      common.skipped.push({ what: rel, why: problem });
      continue;
    }
    names.push(name);
    files.push(...walkFolder(path, `skills/${name}`, { ...common, rel }));
  }
  return { names, files };
}

function skillProblem(path: string, name: string, rel: string, owned: ReadonlyMap<string, string>): string | null {
  if (owned.has(`${rel}/SKILL.md`)) return `installed by bosun (pack ${owned.get(`${rel}/SKILL.md`)})`;
  if (!ARTIFACT_NAME.test(name)) return "its name is not a pack artifact name (lower-case letters, digits, '-' and '.')";
  if (!existsSync(join(path, "SKILL.md"))) return "no SKILL.md";
  const text = readFileSync(join(path, "SKILL.md"), "utf8");
  const problem = frontmatterProblem(text, "SKILL.md");
  if (problem) return `SKILL.md: ${problem}`;
  const declared = parseFrontmatter(text, "SKILL.md").data.name;
  return declared === undefined || declared === name ? null : `SKILL.md names it ${JSON.stringify(declared)}, not its folder's name`;
}

/** Each command file of the runtime's format as `commands/<name>.md`; `skill`-format commands are skills, read by `importSkills`. */
export function importCommands(folder: ArtifactFolder, format: CommandFormat, common: Common): { names: string[]; files: OutFile[] } {
  const names: string[] = [];
  const files: OutFile[] = [];
  if (!isDir(folder.dir) || format === "skill") return { names, files };
  const extension = format === "gemini-toml" ? ".toml" : ".md";
  for (const entry of readdirSync(folder.dir).sort()) {
    const rel = `${folder.rel}/${entry}`;
    const path = join(folder.dir, entry);
    const info = lstatSync(path);
    if (info.isDirectory()) {
      common.skipped.push({ what: rel, why: "a folder of namespaced commands (/folder:name): a pack's commands are one file each" });
      continue;
    }
    if (!entry.endsWith(extension) || !info.isFile()) continue;
    const name = entry.slice(0, -extension.length);
    const refused = notImported(rel, name, common);
    if (refused) {
      common.skipped.push({ what: rel, why: refused });
      continue;
    }
    const out = format === "gemini-toml" ? tomlCommand(path, `commands/${name}.md`, common) : readOut(path, `commands/${name}.md`, info.mode, common.rewrite);
    const problem = out ? frontmatterProblem(out.bytes.toString("utf8"), entry) : "not a TOML command with a prompt";
    if (problem || !out) {
      common.skipped.push({ what: rel, why: problem ?? "unreadable" });
      continue;
    }
    names.push(name);
    files.push(out);
  }
  return { names, files };
}

/** A Gemini TOML command (`description`, `prompt` with `{{args}}`) as canonical markdown (`$ARGUMENTS`). */
function tomlCommand(path: string, rel: string, common: Common): OutFile | null {
  let doc: Record<string, unknown>;
  try {
    doc = parseToml(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  if (typeof doc.prompt !== "string") return null;
  const data = { description: typeof doc.description === "string" ? doc.description : "" };
  const text = `${renderFrontmatter(data)}${doc.prompt.replaceAll("{{args}}", "$ARGUMENTS")}${doc.prompt.endsWith("\n") ? "" : "\n"}`;
  return { rel, bytes: Buffer.from(common.rewrite(text)), executable: false };
}

/** Each agent definition as `agents/<name>.md` (OpenCode's `mode: subagent` line, which bosun writes itself, left out). */
export function importAgents(folder: ArtifactFolder, format: AgentFormat, common: Common): { names: string[]; files: OutFile[] } {
  const names: string[] = [];
  const files: OutFile[] = [];
  if (!isDir(folder.dir)) return { names, files };
  for (const entry of readdirSync(folder.dir).sort()) {
    const rel = `${folder.rel}/${entry}`;
    const path = join(folder.dir, entry);
    const info = lstatSync(path);
    if (!entry.endsWith(".md") || !info.isFile() || entry.startsWith(".")) {
      if (!entry.startsWith(".")) common.skipped.push({ what: rel, why: "not an agent definition (agents/<name>.md)" });
      continue;
    }
    const name = entry.slice(0, -3);
    const refused = notImported(rel, name, common);
    if (refused) {
      common.skipped.push({ what: rel, why: refused });
      continue;
    }
    const out = readOut(path, `agents/${name}.md`, info.mode, common.rewrite);
    if (format === "opencode") out.bytes = Buffer.from(out.bytes.toString("utf8").replace(/^(---\r?\n(?:.*\r?\n)*?)mode:[ \t]*subagent[ \t]*\r?\n/, "$1"));
    const problem = frontmatterProblem(out.bytes.toString("utf8"), entry);
    if (problem) {
      common.skipped.push({ what: rel, why: problem });
      continue;
    }
    names.push(name);
    files.push(out);
  }
  return { names, files };
}

/** Why a command or agent file is not imported: bosun installed it, or its name is not a pack artifact name; null: it is. */
function notImported(rel: string, name: string, common: { owned: ReadonlyMap<string, string> }): string | null {
  if (common.owned.has(rel)) return `installed by bosun (pack ${common.owned.get(rel)})`;
  if (!ARTIFACT_NAME.test(name)) return "its name is not a pack artifact name (lower-case letters, digits, '-' and '.')";
  return null;
}
