import { plainView } from "../../kernel/terminal-text.js";
import { cliText, type CliListing, type ListedError, type ListedItem } from "../listing.js";

const SKILL_HEADER = /^(\S+) \[(Enabled|Disabled)\]\s*$/;
const LOCATION = /^\s+Location:\s+(.+?)\s*$/;
const UNTRUSTED = /untrusted folder|folder is not trusted/i;
// "Failed to load agent from <file>: <why>" (after a log prefix), about one agent file.
const AGENT_ERROR = /Failed to load agent from (\/[^\n]*?\.md): (.*)$/;
// 'Skill conflict detected: "<name>" from "<winner>" is overriding the same skill from "<loser>".'
const SKILL_CONFLICT = /Skill conflict detected: "([^"]+)" from "([^"]+)" is overriding the same skill from "([^"]+)"/;

/**
 * `gemini skills list`: each skill as `name [Enabled|Disabled]` with its `Location:`. Gemini
 * lists neither commands nor agents offline, so those are left unchecked; what it says on
 * stderr counts: that it skipped the project's artifacts in an untrusted folder, and which
 * agent or skill file it could not load. Null when the output has no skill list at all.
 */
export function parseGeminiSkills(stdout: string, stderr: string): CliListing | null {
  const lines = plainView(stdout).plain.split("\n");
  const skills: ListedItem[] = [];
  let current: ListedItem | null = null;
  for (const line of lines) {
    const header = SKILL_HEADER.exec(line);
    if (header) {
      current = { name: header[1] as string, ...(header[2] === "Disabled" ? { enabled: false } : {}) };
      skills.push(current);
      continue;
    }
    const location = LOCATION.exec(line);
    if (location && current) current.path = location[1] as string;
  }
  if (skills.length === 0 && !/No skills|Discovered Agent Skills/i.test(stdout)) return null;
  const errors: ListedError[] = [];
  const messages = plainView(stderr).plain.split("\n");
  for (const line of messages) {
    const agent = AGENT_ERROR.exec(line);
    if (agent && !errors.some((error) => error.path === agent[1])) errors.push({ path: agent[1] as string, kind: "agent", message: cliText(agent[2]) });
    const conflict = SKILL_CONFLICT.exec(line);
    if (conflict) errors.push({ path: conflict[3] as string, kind: "skill", message: cliText(`shadowed by another skill of the same name (${conflict[2]})`) });
  }
  return { skills, errors, untrustedFolder: messages.some((line) => UNTRUSTED.test(line)) };
}
