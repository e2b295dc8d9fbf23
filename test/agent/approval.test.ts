import { describe, expect, it } from "vitest";
import { ApprovalGate, type ApprovalAnswer, type ApprovalRequest } from "../../src/agent/approval/approval.js";
import { AgentAbortedError } from "../../src/agent/model/errors.js";
import { decideApproval, type ApprovalMode, type ApprovalQuestion, type PermissionRules } from "../../src/agent/approval/approval-policy.js";
import type { ToolAccess } from "../../src/agent/tools/tool.js";

const q = (tool: string, access: ToolAccess, danger: string | null = null): ApprovalQuestion => ({ tool, access, danger, description: `${tool} call` });
const decide = (question: ApprovalQuestion, mode: ApprovalMode, rules: PermissionRules = {}, grants: string[] = []) => decideApproval(question, mode, rules, new Set(grants)).action;

describe("approval rules", () => {
  it.each([
    ["ask", "read", "allow"],
    ["ask", "edit", "ask"],
    ["ask", "execute", "ask"],
    ["ask", "interact", "allow"],
    ["auto-edit", "edit", "allow"],
    ["auto-edit", "execute", "ask"],
    ["full-access", "edit", "allow"],
    ["full-access", "execute", "allow"],
  ] as const)("in %s mode, %s tools: %s", (mode, access, action) => {
    expect(decide(q("t", access), mode)).toBe(action);
  });

  it("applies per-tool policy, with deny winning in every mode", () => {
    expect(decide(q("bash", "execute"), "ask", { bash: "allow" })).toBe("allow");
    expect(decide(q("read", "read"), "ask", { read: "ask" })).toBe("ask");
    expect(decide(q("write", "edit"), "full-access", { write: "deny" })).toBe("deny");
    expect(decide(q("bash", "execute"), "full-access", { bash: "ask" })).toBe("allow");
  });

  it("asks about dangerous calls even in full-access, unless dangerous is allow; deny refuses them", () => {
    const danger = q("bash", "execute", "is a recursive force delete (rm -rf x)");
    expect(decide(danger, "full-access")).toBe("ask");
    expect(decide(danger, "full-access", { bash: "allow" })).toBe("ask");
    expect(decide(danger, "full-access", { dangerous: "allow" })).toBe("allow");
    expect(decide(danger, "ask", { dangerous: "allow" })).toBe("ask");
    expect(decideApproval(danger, "full-access", { dangerous: "deny" }, new Set())).toEqual({ action: "deny", reason: "it is a recursive force delete (rm -rf x), and permissions.dangerous is deny in bosun.json" });
  });

  it("remembers session grants by tool, and dangerous ones by the exact call", () => {
    expect(decide(q("bash", "execute"), "ask", {}, ["bash"])).toBe("allow");
    const danger = q("bash", "execute", "force-pushes");
    expect(decideApproval(danger, "ask", {}, new Set(["bash"]))).toEqual({ action: "ask", grantKey: "bash!bash call" });
    expect(decide(danger, "ask", {}, ["bash!bash call"])).toBe("allow");
  });
});

describe("the approval gate", () => {
  const request = (tool: string, danger: string | null = null): ApprovalRequest & { access: ToolAccess } => ({ ...q(tool, tool === "write" ? "edit" : "execute", danger), callId: "c1" });
  const signal = new AbortController().signal;

  it("with no approver, refuses asks with a message the model can act on, and says that nobody could approve", async () => {
    const gate = new ApprovalGate({ mode: "ask", rules: {}, approver: null });
    const outcome = await gate.check(request("bash"), signal);
    expect(outcome).toEqual({
      allowed: false,
      message:
        "Not run: bash needs the user's approval in ask mode, and nobody can approve in this session (bosun is not attached to a terminal). Do not retry it. Tell the user what you wanted to do; they can rerun with --yes or --mode, or set permissions.bash to allow in bosun.json.",
      noApprover: true,
    });
    const dangerous = await new ApprovalGate({ mode: "full-access", rules: {}, approver: null }).check(request("bash", "force-pushes with git"), signal);
    expect(dangerous).toMatchObject({ allowed: false, noApprover: true, message: expect.stringMatching(/^Not run: this call force-pushes with git, which always needs the user's approval \(even with --yes\)/) });
    // A sub-agent's gate (dangerous calls ask even where the parent allows them) says so too.
    const child = new ApprovalGate({ mode: "full-access", rules: { dangerous: "allow" }, approver: null }).forSubAgent("sub-agent #1");
    expect(await child.check(request("bash", "force-pushes with git"), signal)).toMatchObject({ allowed: false, noApprover: true });
  });

  it("does not say that nobody could approve when a rule or the user refused", async () => {
    const denied = await new ApprovalGate({ mode: "ask", rules: { bash: "deny" }, approver: null }).check(request("bash"), signal);
    expect(denied).toEqual({ allowed: false, message: "Not run: permissions.bash is deny in bosun.json. Do not retry it; find another way or tell the user what you need." });
    const declined = await new ApprovalGate({ mode: "ask", rules: {}, approver: async () => "deny" }).check(request("bash"), signal);
    expect(declined).toEqual({ allowed: false, message: expect.stringMatching(/^Not run: the user declined this call/) });
  });

  it("asks the approver; always-for-this-session is remembered and reported once", async () => {
    const answers: ApprovalAnswer[] = ["session", "deny"];
    const asked: string[] = [];
    const granted: string[] = [];
    const gate = new ApprovalGate({
      mode: "ask",
      rules: {},
      approver: async (r) => (asked.push(r.tool), answers.shift()!),
      onGrant: (key) => granted.push(key),
    });
    expect(await gate.check(request("bash"), signal)).toEqual({ allowed: true });
    expect(await gate.check(request("bash"), signal)).toEqual({ allowed: true });
    expect(await gate.check(request("write"), signal)).toMatchObject({ allowed: false, message: expect.stringMatching(/the user declined this call/) });
    expect(asked).toEqual(["bash", "write"]);
    expect(granted).toEqual(["bash"]);
  });

  it("a sub-agent's gate never loosens the dangerous-command policy", async () => {
    const parent = new ApprovalGate({ mode: "full-access", rules: { dangerous: "allow" }, approver: null });
    expect(await parent.check(request("bash", "force-pushes"), signal)).toEqual({ allowed: true });
    const child = parent.forSubAgent();
    expect(child.mode).toBe("full-access");
    expect((await child.check(request("bash", "force-pushes"), signal)).allowed).toBe(false);
    expect((await child.check(request("bash"), signal)).allowed).toBe(true);
  });

  it("asks one question at a time across a tree, tells the approver how many wait, and decides a waiting call again when its turn comes", async () => {
    const open: string[] = [];
    let most = 0;
    const pending: { request: ApprovalRequest; answer(a: ApprovalAnswer): void }[] = [];
    const gate = new ApprovalGate({
      mode: "ask",
      rules: {},
      approver: (r) =>
        new Promise((resolve) => {
          open.push(r.description);
          most = Math.max(most, open.length);
          pending.push({ request: r, answer: (a) => (open.splice(open.indexOf(r.description), 1), resolve(a)) });
        }),
    });
    const child = gate.forSubAgent("sub-agent #1");
    const first = gate.check({ ...request("bash"), description: "$ make" }, signal);
    const second = child.check({ ...request("write"), description: "write a.txt" }, signal);
    const third = child.check({ ...request("bash"), description: "$ make test" }, signal);
    await until(() => pending.length === 1);
    expect(pending[0]!.request).toMatchObject({ description: "$ make", waiting: 2 });
    pending[0]!.answer("session");
    expect(await first).toEqual({ allowed: true });
    await until(() => pending.length === 2);
    expect(pending[1]!.request).toMatchObject({ description: "write a.txt", agent: "sub-agent #1", waiting: 1 });
    pending[1]!.answer("deny");
    expect((await second).allowed).toBe(false);
    // The third call waited behind the others; "always for this session" for bash now covers it.
    expect(await third).toEqual({ allowed: true });
    expect(pending).toHaveLength(2);
    expect(most).toBe(1);
  });

  it("gives up a call waiting for its turn when the run is cancelled, without asking it", async () => {
    const asked: string[] = [];
    const gate = new ApprovalGate({ mode: "ask", rules: {}, approver: (r, s) => (asked.push(r.description), new Promise((_, reject) => s.addEventListener("abort", () => reject(new Error("closed"))))) });
    const controller = new AbortController();
    const open = gate.check({ ...request("bash"), description: "$ first" }, controller.signal);
    const waiting = gate.check({ ...request("bash"), description: "$ second" }, controller.signal);
    await until(() => asked.length === 1);
    controller.abort();
    await expect(open).rejects.toBeInstanceOf(AgentAbortedError);
    await expect(waiting).rejects.toBeInstanceOf(AgentAbortedError);
    expect(asked).toEqual(["$ first"]);
  });
});

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 2));
  expect(condition()).toBe(true);
}
