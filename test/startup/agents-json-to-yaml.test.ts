import { existsSync, readFileSync, statSync, chmodSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { agentsJsonToYamlStep, planAgentsJsonToYaml } from "../../src/startup/20_agents_json_to_yaml.js";
import { migrationContext, runSteps } from "../fixtures/migration-context.js";
import { makeTempHome } from "../fixtures/temp-home.js";

describe("20_agents_json_to_yaml", () => {
  it("writes agent.yaml with the same content and keeps agent.json", async () => {
    const t = makeTempHome();
    const profile = { name: "reviewer", model: "openai/gpt-5", tools: ["read", "grep"], limits: { turns: 20 } };
    const json = t.write(join(t.paths.data, "agents/reviewer/agent.json"), JSON.stringify(profile));
    chmodSync(json, 0o600);
    await runSteps(migrationContext(t), [agentsJsonToYamlStep]);
    const yamlFile = join(t.paths.data, "agents/reviewer/agent.yaml");
    expect(parse(readFileSync(yamlFile, "utf8"))).toEqual(profile);
    expect(statSync(yamlFile).mode & 0o777).toBe(0o600);
    expect(existsSync(json)).toBe(true);
  });

  it("skips a profile whose agent.yaml exists, and plans nothing on a second run", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.data, "agents/a/agent.json"), '{"name":"from-json"}');
    t.write(join(t.paths.data, "agents/a/agent.yaml"), "name: hand-written\n");
    t.write(join(t.paths.config, "agents/b/agent.json"), '{"name":"b"}');
    await runSteps(migrationContext(t), [agentsJsonToYamlStep]);
    expect(readFileSync(join(t.paths.data, "agents/a/agent.yaml"), "utf8")).toBe("name: hand-written\n");
    expect(parse(readFileSync(join(t.paths.config, "agents/b/agent.yaml"), "utf8"))).toEqual({ name: "b" });
    expect(planAgentsJsonToYaml(migrationContext(t))).toEqual({ actions: [], notes: [] });
  });

  it("reports a malformed agent.json and still converts the others", async () => {
    const t = makeTempHome();
    t.write(join(t.paths.data, "agents/bad/agent.json"), '{"name": ');
    t.write(join(t.paths.data, "agents/list/agent.json"), "[1,2]");
    t.write(join(t.paths.data, "agents/good/agent.json"), '{"name":"good"}');
    const report = await runSteps(migrationContext(t), [agentsJsonToYamlStep]);
    expect(existsSync(join(t.paths.data, "agents/good/agent.yaml"))).toBe(true);
    expect(existsSync(join(t.paths.data, "agents/bad/agent.yaml"))).toBe(false);
    expect(report.steps[0]!.notes.map((n) => [n.level, n.message])).toEqual([
      ["warn", expect.stringMatching(/agents\/bad\/agent\.json is not valid JSON .*; not converted/)],
      ["warn", expect.stringMatching(/agents\/list\/agent\.json does not hold a JSON object; not converted/)],
    ]);
  });

  it("converts the project's .bosun/agents profiles too", async () => {
    const t = makeTempHome();
    t.write("proj/.bosun/agents/p/agent.json", '{"name":"p"}');
    const project = { root: join(t.root, "proj"), dotDir: join(t.root, "proj/.bosun") };
    await runSteps(migrationContext(t, { project }), [agentsJsonToYamlStep]);
    expect(existsSync(join(t.root, "proj/.bosun/agents/p/agent.yaml"))).toBe(true);
  });
});
