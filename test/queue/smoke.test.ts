import { describe, expect, it } from "vitest";
import { startRedis } from "../fixtures/stores.js";
import { fleetHome, startBosun, startWorker } from "../fixtures/queue-fleet.js";
import { useLlmServer } from "../fixtures/use-llm-server.js";

const llm = useLlmServer();

describe("smoke", () => {
  it("runs a fan-out on a worker", async () => {
    const redis = await startRedis();
    const { t, env } = fleetHome(redis, llm.openaiURL);
    const worker = await startWorker(env, t.home);
    llm.onPrompt("review").reply().text("Delegating.").tool("agent", { tasks: ["check alpha", "check beta"] });
    llm.onPrompt("check alpha").reply().tool("bash", { command: "echo a >> count.txt" });
    llm.onPrompt("check alpha").reply().text("alpha fine");
    llm.onPrompt("check beta").reply().text("beta fine");
    llm.onPrompt("review").reply().text("Reviewed.");
    const run = startBosun(["run", "--json", "-y", "review"], env, t.home);
    const code = await run.exited;
    console.log(run.stdout().slice(0, 3000), run.stderr(), worker.stderr());
    expect(code).toBe(0);
  }, 60_000);
});
