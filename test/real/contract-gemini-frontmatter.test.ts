// The frontmatter table and the dotted-name rule, judged by the real Gemini CLI (0.61.0, offline):
// its agent schema is strict, so an agent with Claude Code's keys (`color`) or a dotted name is
// refused; the agent bosun writes from the same pack (only Gemini's keys, `temperature` and
// `max_turns` kept) loads without an error, and the skill with Claude-only keys is listed.
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { stage, type Stage } from "../fixtures/conformance.js";
import { writePackFile } from "../fixtures/support-pack.js";

const AGENT = "---\nname: kit-agent\ndescription: The kit's agent.\ntools: Read, Bash\ncolor: green\neffort: high\ntemperature: 0.2\nmax_turns: 5\n---\n\nDo the work.\n";

async function agentProblems(s: Stage): Promise<{ problems: string[]; skills: string[] }> {
  const run = await s.run(["skills", "list"], { GEMINI_CLI_TRUST_WORKSPACE: "true" });
  expect(run.timedOut).toBe(false);
  expect(run.code, run.stderr).toBe(0);
  const text = `${run.stdout}\n${run.stderr}`;
  return { problems: text.split("\n").filter((line) => /Error loading|Validation failed|Unrecognized key|valid slug/.test(line)), skills: [...text.matchAll(/^(\S+) \[(Enabled|Disabled)\]/gm)].map((match) => match[1] as string) };
}

describe("Gemini CLI and the frontmatter table", () => {
  it("loads the agent bosun writes; refuses the same file as written, and a dotted agent name", async () => {
    const s = stage("gemini");
    const pack = join(s.t.root, "pack");
    writePackFile(pack, "pack.json", JSON.stringify({ name: "kit", version: "1.0.0", artifacts: { agents: ["kit-agent"], skills: ["kit-skill"] } }));
    writePackFile(pack, "agents/kit-agent.md", AGENT);
    writePackFile(pack, "skills/kit-skill/SKILL.md", "---\nname: kit-skill\ndescription: A skill.\nargument-hint: \"<phase>\"\ndisable-model-invocation: true\n---\n\nBody.\n");
    const installed = await s.bosun(["install", pack, "--runtime", "gemini", "--scope", "global", "--yes"]);
    expect(installed.code, installed.stderr).toBe(0);
    const found = await agentProblems(s);
    expect(found.problems).toEqual([]);
    expect(found.skills).toContain("kit-skill");

    // The pack's file as it is (Claude Code's keys in it), and a dotted name: Gemini refuses both.
    s.t.write(join(s.t.home, ".gemini/agents/as-written.md"), AGENT.replace("name: kit-agent", "name: as-written"));
    s.t.write(join(s.t.home, ".gemini/agents/kit-agent.compact.md"), "---\nname: kit-agent.compact\ndescription: d\n---\nDo.\n");
    const refused = (await agentProblems(s)).problems.join("\n");
    expect(refused).toMatch(/as-written\.md[\s\S]*Unrecognized key\(s\) in object: 'color'/);
    expect(refused).toMatch(/kit-agent\.compact\.md[\s\S]*Name must be a valid slug/);
  }, 240_000);
});
