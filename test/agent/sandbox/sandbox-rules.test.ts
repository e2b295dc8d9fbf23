import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ApprovalGate, type ApprovalRequest } from "../../../src/agent/approval/approval.js";
import { decideApproval, type ApprovalQuestion } from "../../../src/agent/approval/approval-policy.js";
import { isMasked, mayWrite, narrowSandbox, writeGrant } from "../../../src/agent/sandbox/sandbox.js";
import { createBashTool } from "../../../src/agent/tools/bash.js";
import { createEditTool } from "../../../src/agent/tools/edit.js";
import { createGrepTool } from "../../../src/agent/tools/grep.js";
import { createReadTool } from "../../../src/agent/tools/read.js";
import { createWriteTool } from "../../../src/agent/tools/write.js";
import { makeToolBench } from "../../fixtures/tool-context.js";
import { describeSandboxed, sandboxLayout, testSandbox } from "../../fixtures/sandbox.js";

const escapeQuestion: ApprovalQuestion = { tool: "bash", access: "execute", danger: null, description: "$ echo x > /srv/y", escape: "writes outside the sandbox's writable folders: /srv" };

describe("approval of what the sandbox does not allow", () => {
  it("asks in every mode, whatever permissions say; only a deny rule refuses without asking", () => {
    for (const mode of ["ask", "auto-edit", "full-access"] as const) {
      for (const rules of [{}, { bash: "allow" as const }, { dangerous: "allow" as const }]) {
        expect(decideApproval(escapeQuestion, mode, rules, new Set()).action).toBe("ask");
      }
    }
    expect(decideApproval(escapeQuestion, "full-access", { bash: "deny" }, new Set()).action).toBe("deny");
    expect(decideApproval(escapeQuestion, "full-access", {}, new Set(["bash"])).action).toBe("ask"); // a tool-wide grant does not cover it
  });

  it("an 'always' answer covers that exact call only", async () => {
    const asked: ApprovalRequest[] = [];
    const gate = new ApprovalGate({ mode: "full-access", rules: {}, approver: async (request) => (asked.push(request), "session") });
    const request = { ...escapeQuestion, callId: "c1" };
    expect(await gate.check(request, new AbortController().signal)).toEqual({ allowed: true });
    expect(await gate.check({ ...request, callId: "c2" }, new AbortController().signal)).toEqual({ allowed: true });
    await gate.check({ ...request, callId: "c3", escape: "writes outside the sandbox's writable folders: /etc" }, new AbortController().signal);
    expect(asked.map((r) => r.callId)).toEqual(["c1", "c3"]);
  });

  it("with nobody to ask, the refusal names the way that works", async () => {
    const gate = new ApprovalGate({ mode: "full-access", rules: { dangerous: "allow" }, approver: null });
    const outcome = await gate.check({ ...escapeQuestion, callId: "c1" }, new AbortController().signal);
    expect(outcome).toMatchObject({ allowed: false, noApprover: true });
    expect(outcome.allowed === false && outcome.message).toContain("only the user can allow (not --yes, not a permissions rule)");
    expect(outcome.allowed === false && outcome.message).toContain("sandbox.writable");
  });
});

describe("the file tools under the sandbox's rules", () => {
  it("write and edit outside the writable folders are sandbox needs, not dangers; inside, neither", async () => {
    const layout = sandboxLayout();
    const sandbox = await testSandbox(layout.workdir, { settings: { writable: [layout.outside] } });
    const write = createWriteTool();
    const edit = createEditTool();
    const elsewhere = join(layout.root, "elsewhere.txt");
    expect(write.sandboxNeeds!({ path: elsewhere, content: "" }, layout.workdir, sandbox)).toEqual({ write: [elsewhere] });
    expect(write.danger!({ path: elsewhere, content: "" }, layout.workdir, sandbox)).toBeNull();
    expect(edit.sandboxNeeds!({ path: "/etc/hosts", old_string: "a", new_string: "b" }, layout.workdir, sandbox)).toEqual({ write: ["/etc/hosts"] });
    expect(write.sandboxNeeds!({ path: "src/a.ts", content: "" }, layout.workdir, sandbox)).toBeNull();
    expect(write.sandboxNeeds!({ path: join(layout.outside, "x"), content: "" }, layout.workdir, sandbox)).toBeNull();
    // Without a sandbox, the old rule: outside the workdir (but for the temp folders) is dangerous.
    expect(write.sandboxNeeds!({ path: "/etc/x.conf", content: "" }, layout.workdir, undefined)).toBeNull();
    expect(write.danger!({ path: "/etc/x.conf", content: "" }, layout.workdir, undefined)).toBe("writes outside the working directory (/etc/x.conf)");
  });

  it("a symlink in the project that leads out is outside; a /tmp path is outside too (a call's /tmp is its own)", async () => {
    const layout = sandboxLayout();
    symlinkSync(layout.outside, join(layout.workdir, "out"));
    const sandbox = await testSandbox(layout.workdir);
    expect(mayWrite(sandbox, join(layout.workdir, "out", "f"))).toBe(false);
    expect(mayWrite(sandbox, join(layout.workdir, "new", "f"))).toBe(true);
    expect(mayWrite(sandbox, "/tmp/scratch.txt")).toBe(false);
    expect(mayWrite(sandbox, join(layout.outside, "f"), [layout.outside])).toBe(true);
    expect(writeGrant(join(layout.outside, "not", "yet.txt"))).toBe(layout.outside);
  });

  it("read asks for a credential file (also through a symlink); grep passes credential files over and says so", async () => {
    const layout = sandboxLayout();
    const auth = join(layout.home, ".codex", "auth.json");
    mkdirSync(join(layout.home, ".codex"));
    writeFileSync(auth, '{"OPENAI_API_KEY":"sk-proj-planted-for-grep-0000"}');
    symlinkSync(auth, join(layout.workdir, "auth-link.json"));
    writeFileSync(join(layout.workdir, "notes.txt"), "sk-proj-mentioned in notes\n");
    const sandbox = await testSandbox(layout.workdir, { secrets: { files: [auth] } });
    expect(isMasked(sandbox, join(layout.workdir, "auth-link.json"))).toBe(true);
    const read = createReadTool();
    expect(read.sandboxNeeds!({ path: auth }, layout.workdir, sandbox)).toEqual({ read: [auth] });
    expect(read.sandboxNeeds!({ path: "auth-link.json" }, layout.workdir, sandbox)).toEqual({ read: [join(layout.workdir, "auth-link.json")] });
    expect(read.sandboxNeeds!({ path: "notes.txt" }, layout.workdir, sandbox)).toBeNull();
    const t = makeToolBench();
    const grep = await t.run(createGrepTool(), { pattern: "sk-proj" }, { workdir: layout.workdir, sandbox });
    expect(grep.output).toContain("notes.txt:1:sk-proj-mentioned in notes");
    expect(grep.output).not.toContain("planted");
    expect(grep.output).toContain("skipped 1 credential file (auth-link.json); read asks the user for one");
  });

  it("bash: the checker's outside writes become needs inside bubblewrap (with exactly what becomes writable), and background always is one", async () => {
    const layout = sandboxLayout();
    const bash = createBashTool();
    const sandbox = await testSandbox(layout.workdir);
    const needs = (command: string, extra: object = {}) => bash.sandboxNeeds!({ command, ...extra }, layout.workdir, sandbox);
    if (sandbox.bwrap) {
      expect(needs("echo x > ../outside/new.txt")).toEqual({ write: [layout.outside] });
      expect(bash.danger!({ command: "echo x > ../outside/new.txt" }, layout.workdir, sandbox)).toBeNull();
      expect(bash.danger!({ command: "git push --force" }, layout.workdir, sandbox)).toMatch(/force-push/);
    }
    expect(needs("echo hi")).toBeNull();
    expect(needs("npm run dev", { background: true })).toEqual({ background: true });
    expect(needs("make", { writable: ["../outside"] })).toEqual({ write: [layout.outside] });
    expect(bash.danger!({ command: "echo x > /etc/new.conf" }, layout.workdir, undefined)).toMatch(/writes outside/);
  });
});

describe("sub-agents' sandbox", () => {
  it("can only be narrower: network off wins, writable folders only inside the parent's", async () => {
    const layout = sandboxLayout();
    const parent = { ...(await testSandbox(layout.workdir, { settings: { network: "on", writable: [layout.outside] } })) };
    const child = narrowSandbox(parent, { network: "off", writable: [join(layout.outside, "sub"), "/etc"] });
    expect(child.network).toBe("off");
    expect(child.writable).toEqual([join(layout.outside, "sub")]);
    expect(narrowSandbox({ ...parent, network: "off" }, { network: "on" as never }).network).toBe("off");
    expect(narrowSandbox(parent, {}).writable).toEqual(parent.writable);
    expect(child.spill).toBe(parent.spill); // one budget for the tree
  });
});

describe("opening the sandbox with bad settings", () => {
  it('a writable folder that is missing, a file, or "/": in auto mode the checker alone and why; in required mode an error', async () => {
    const layout = sandboxLayout();
    const file = join(layout.root, "a-file");
    writeFileSync(file, "");
    const cases: [string, string][] = [
      [join(layout.root, "missing"), `sandbox.writable lists ${join(layout.root, "missing")}, which does not exist; create it or remove it from bosun.json`],
      [file, `sandbox.writable lists ${file}, which is not a folder; list folders only`],
      ["/", 'sandbox.writable lists "/", which would make the whole file system writable; list the folders tools need'],
    ];
    for (const [folder, reason] of cases) {
      const auto = await testSandbox(layout.workdir, { settings: { writable: [folder] } });
      expect(auto).toMatchObject({ bwrap: null, fallback: `${reason}; commands run with the command checker only` });
      expect(auto.writable).not.toContain("/");
      await expect(testSandbox(layout.workdir, { settings: { mode: "required", writable: [folder] } })).rejects.toThrow(`sandbox: ${reason}; sandbox.mode is "required"`);
    }
  });
});

describeSandboxed("the kept bwrap verdict", () => {
  it("status may take a kept verdict while nothing it depends on changed; a run always checks anew, and keeps what it found", async () => {
    const { checkBwrap } = await import("../../../src/agent/sandbox/bwrap-probe.js");
    const { bwrapCheckKey, cachedBwrapCheck, rememberBwrapCheck } = await import("../../../src/agent/sandbox/bwrap-check-cache.js");
    const layout = sandboxLayout();
    const state = join(layout.root, "state");
    const real = await checkBwrap(process.env, "/");
    if (!real.ok) throw new Error(real.reason);
    rememberBwrapCheck(state, bwrapCheckKey(real.bwrap), { ok: false, reason: "kept reason" });
    expect(await checkBwrap(process.env, "/", { stateDir: state, trust: true })).toEqual({ ok: false, reason: "kept reason" });
    expect(await checkBwrap(process.env, "/", { stateDir: state, trust: false })).toEqual(real);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(cachedBwrapCheck(state, bwrapCheckKey(real.bwrap))).toMatchObject({ ok: true });
    expect(cachedBwrapCheck(state, bwrapCheckKey(real.bwrap) + "x")).toBeNull();
  });
});
