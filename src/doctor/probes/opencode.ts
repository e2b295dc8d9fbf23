import { plainView } from "../../kernel/terminal-text.js";
import { isObject, type CliListing, type ListedError, type ListedItem } from "../listing.js";
import { opencodeMcpServers } from "./mcp-lists.js";

/**
 * OpenCode's resolved config (`command`, `agent` and `mcp`, global and project: what `opencode debug
 * config` prints and its server's GET /config answers) and, when skills are expected, its skills
 * (name and location of each, including those OpenCode reads from ~/.claude/skills and
 * ~/.agents/skills: `opencode debug skill`, or GET /skill). OpenCode does not reject a
 * file whose frontmatter does not parse: it keeps the whole file as the prompt, and an agent
 * falls back to `mode: all` without a description, so that is reported as the file's error.
 * Null when the config is not JSON.
 */
export function parseOpencode(configOut: string, skillOut: string | null): CliListing | null {
  const config = parseJsonOutput(configOut);
  if (!isObject(config)) return null;
  const errors: ListedError[] = [];
  const commands: ListedItem[] = [];
  for (const [name, command] of Object.entries(isObject(config.command) ? config.command : {})) {
    commands.push({ name });
    if (isObject(command) && typeof command.template === "string" && command.template.trimStart().startsWith("---") && command.description === undefined) {
      errors.push({ name, kind: "command", message: "its frontmatter did not parse (OpenCode kept the whole file as the template)" });
    }
  }
  const agents: ListedItem[] = [];
  for (const [name, agent] of Object.entries(isObject(config.agent) ? config.agent : {})) {
    agents.push({ name });
    if (isObject(agent) && agent.mode === "all" && agent.description === undefined && typeof agent.prompt === "string" && agent.prompt.trimStart().startsWith("---")) {
      errors.push({ name, kind: "agent", message: "its frontmatter did not parse (OpenCode made it a primary agent without a description)" });
    }
  }
  const listing: CliListing = { commands, agents, mcpServers: opencodeMcpServers(config.mcp), errors };
  if (skillOut !== null) {
    const skills = parseJsonOutput(skillOut);
    if (Array.isArray(skills)) {
      listing.skills = skills.filter(isObject).flatMap((skill) => (typeof skill.name === "string" ? [{ name: skill.name, ...(typeof skill.location === "string" ? { path: skill.location } : {}) }] : []));
    }
  }
  return listing;
}

/** OpenCode prints JSON, sometimes after colour codes or a log line: the value from the first `{` or `[`. */
function parseJsonOutput(text: string): unknown {
  const plain = plainView(text).plain;
  const start = plain.search(/^[[{]/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(plain.slice(start));
  } catch {
    return undefined;
  }
}
