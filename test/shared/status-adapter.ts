// One status-adapter suite, run against every runtime in the registry (test/runtimes/status-adapters.test.ts):
// the contract fields, status only, no secret in any output, odd files where credentials are looked
// for. What it plants and where is derived from the runtime itself (its declared credential
// locations and the paths its detection is seen to inspect), so a new runtime is covered by being
// registered. Agent-specific rules stay in test/runtimes/<id>.test.ts.
// Nothing is sampled: every place of every runtime gets every odd file and its own planted login,
// and every credential variable is set alone (OpenCode's 222 too), because detection is file checks
// of a few milliseconds; the whole file took 15 to 57 s on two cores shared with other runs (load 8 to 11).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { collectAgentReports, type AgentReport } from "../../src/runtimes/collect-status.js";
import { MAX_CREDENTIAL_BYTES } from "../../src/runtimes/kit/detect/file-reader.js";
import { codePointSorted } from "../../src/runtimes/kit/detect/env.js";
import { ProbeError, oneLine } from "../../src/runtimes/kit/probe-error.js";
import { getRuntime, listRuntimes } from "../../src/runtimes/registry.js";
import type { AuthStatus, CredentialLocations, DisconnectPlan, StatusRuntime, RuntimeVariant } from "../../src/runtimes/kit/types.js";
import type { Env } from "../../src/kernel/paths.js";
import { runCli } from "../fixtures/cli.js";
import {
  credentialPlaces,
  fakeSecret,
  leaksIn,
  makeStatusHome,
  ODDITIES,
  plantLogins,
  releaseFifoAfter,
  reportOf,
  runStatus,
  type CredentialPlaces,
  type StatusHome,
  type StatusRun,
} from "./status-adapter-home.js";
import { snapshotTree } from "../fixtures/fs-snapshot.js";

const AUTH_KEYS = ["connected", "mode", "authPath", "error"];
const AUTH_MODES = ["plugin", "external", "env", ""];
const REPORT_KEYS = ["id", "title", "description", "binary", "installed", "installHint", "loginHint", "supportsDeviceLogin", "canDisconnect", "auth", "verified"];
const OPTIONAL_REPORT_KEYS = ["variant", "verifiedAgainst"];
// Names as agents read them: OpenCode's models.dev list has `302AI_API_KEY`, which a POSIX shell cannot export but an environment can hold.
const VARIABLE_NAME = /^[A-Za-z0-9_]+$/;
/**
 * A FIFO's writer lets a blocked read go after this long; a detection that takes half of it has
 * hung (it takes a few milliseconds: the margin is for two cores shared with other test runs).
 */
const FIFO_RELEASE_MS = 4_000;
const HANG_MS = FIFO_RELEASE_MS / 2;

// Each runtime's places, worked out once per test file (the "others still report" checks use every runtime's).
const placesCache = new Map<string, Promise<CredentialPlaces>>();
function placesOf(runtime: StatusRuntime): Promise<CredentialPlaces> {
  if (!placesCache.has(runtime.id)) placesCache.set(runtime.id, credentialPlaces(runtime));
  return placesCache.get(runtime.id)!;
}

/** The status answer's contract (types.ts `AuthStatus`): only the documented fields, each well typed. */
export function expectWellFormedAuth(auth: AuthStatus, env: Env, label: string): void {
  expect(Object.keys(auth).filter((key) => !AUTH_KEYS.includes(key)), `${label}: fields beyond AuthStatus's`).toEqual([]);
  expect(typeof auth.connected, label).toBe("boolean");
  expect(AUTH_MODES, label).toContain(auth.mode);
  // `""` is "not signed in", and only that.
  expect(auth.mode === "", `${label}: mode "${auth.mode}" with connected ${auth.connected}`).toBe(!auth.connected);
  expect(typeof auth.authPath, label).toBe("string");
  // env mode: authPath is the variable's name (one that is set), never its value.
  if (auth.mode === "env") {
    expect(auth.authPath, label).toMatch(VARIABLE_NAME);
    expect(env[auth.authPath], `${label}: ${auth.authPath} is not set`).toBeTruthy();
  }
  if (auth.error !== undefined) {
    expect(auth.connected, `${label}: an error while signed in`).toBe(false);
    expectDisplaySafe(auth.error, [], label);
  }
}

/** One line, bounded, no undecoded bytes, no leak, and not the name-only fallback for a crash. */
export function expectDisplaySafe(text: string, secrets: readonly string[], label: string): void {
  expect(typeof text, label).toBe("string");
  expect(text, `${label}: not one display line`).toBe(oneLine(text));
  expect(text, label).not.toMatch(/\uFFFD|^status check failed/);
  expect(text.length, label).toBeGreaterThan(0);
  expect(leaksIn(text, secrets), label).toEqual([]);
}

function expectWellFormedLocations(locations: CredentialLocations, label: string): void {
  expect(Object.keys(locations).sort(), label).toEqual(["env", "files", "folders"]);
  for (const paths of [locations.files, locations.folders]) {
    expect(paths.every((path) => typeof path === "string" && isAbsolute(path)), `${label}: ${paths.join(", ")}`).toBe(true);
    expect(paths, `${label}: sorted, each once`).toEqual(codePointSorted(paths));
  }
  expect(locations.env.every((name) => VARIABLE_NAME.test(name)), label).toBe(true);
  expect(locations.env, `${label}: sorted, each once`).toEqual(codePointSorted(locations.env));
}

function expectWellFormedPlan(plan: DisconnectPlan, label: string): void {
  expect(["remove-file", "edit-credentials", "run-logout", "none"], label).toContain(plan.action);
  if (plan.action === "none") return void expect(typeof plan.reason, label).toBe("string");
  expect(["plugin", "external", "env"], label).toContain(plan.mode);
  if (plan.action === "remove-file") expect(isAbsolute(plan.path), label).toBe(true);
  if (plan.action === "edit-credentials") expect(plan.edits.every((edit) => isAbsolute(edit.path)), label).toBe(true);
  if (plan.action === "run-logout") expect([typeof plan.command, plan.args.every((arg) => typeof arg === "string"), plan.secretFiles.every(isAbsolute)], label).toEqual(["string", true, true]);
}

function expectWellFormedVariant(variant: RuntimeVariant, label: string): void {
  for (const key of ["id", "title", "description", "installHint", "loginHint"] as const) expect(typeof variant[key], `${label}: variant.${key}`).toBe("string");
}

/** Every facet's answer, as types.ts declares it. */
function expectWellFormedRun(runtime: StatusRuntime, home: StatusHome, run: StatusRun, label: string): void {
  expect(typeof run.binary, label).toBe("string");
  expect(run.binary.length, label).toBeGreaterThan(0);
  expect(typeof run.installed, label).toBe("boolean");
  expect(run.dataDir, label).toBe(join(home.ctx.dataDir, "runtimes", runtime.id));
  expectWellFormedAuth(run.auth, home.ctx.env, label);
  expectWellFormedLocations(run.locations, label);
  if (run.plan) expectWellFormedPlan(run.plan, label);
  if (run.variant) expectWellFormedVariant(run.variant, label);
}

/** `bosun agents --json`'s entry: exactly the documented fields (collect-status.ts `AgentReport`). */
function expectWellFormedReport(runtime: StatusRuntime, report: AgentReport, env: Env, label: string): void {
  const keys = Object.keys(report);
  expect(keys.filter((key) => !REPORT_KEYS.includes(key) && !OPTIONAL_REPORT_KEYS.includes(key)), `${label}: undocumented fields`).toEqual([]);
  expect(REPORT_KEYS.filter((key) => !keys.includes(key)), `${label}: missing fields`).toEqual([]);
  expect(report.id, label).toBe(runtime.id);
  for (const key of ["title", "description", "binary", "installHint", "loginHint"] as const) expect(typeof report[key], `${label}: ${key}`).toBe("string");
  for (const key of ["installed", "supportsDeviceLogin", "canDisconnect", "verified"] as const) expect(typeof report[key], `${label}: ${key}`).toBe("boolean");
  expect(report.verified, label).toBe(report.verifiedAgainst !== undefined);
  expect("variant" in report, label).toBe(runtime.variant !== undefined);
  expectWellFormedAuth(report.auth, env, label);
}

/** Reports with the temp root taken out, to compare two homes. */
function portable(reports: AgentReport[], root: string): string {
  return JSON.stringify(reports).replaceAll(root, "<root>");
}

/** Is `place` (relative to the root) one of `places`, inside one, or holding one? */
function touches(place: string, places: readonly string[]): boolean {
  return places.some((other) => other === place || other.startsWith(place + "/") || place.startsWith(other + "/"));
}

/** One planted state of a home and the status seen in it. */
interface PlantedState {
  label: string;
  home: StatusHome;
  run: StatusRun;
  secrets: string[];
}

/**
 * The planted states: every place and every credential variable; every place alone of the
 * variables; each place alone; each variable alone. An adapter stops at the first login it finds,
 * so only one at a time shows what it makes of each. Every place and variable holds a distinct
 * fake secret, and so does the a0 host's URL (shown without its user part).
 */
async function* plantedStates(runtime: StatusRuntime, places: CredentialPlaces): AsyncGenerator<PlantedState> {
  const envSecrets = Object.fromEntries(places.env.map((name, i) => [name, fakeSecret(runtime.id, 1000 + i)]));
  const urlSecret = fakeSecret(runtime.id, 999);
  const host = { AGENT_ZERO_HOST: `http://agent:${urlSecret}@127.0.0.1:1` };
  const state = async (label: string, env: Env, only?: string): Promise<PlantedState> => {
    const home = makeStatusHome(runtime, { ...host, ...env });
    const subset = only === undefined ? places : { files: places.files.filter((place) => place === only), folders: places.folders.filter((place) => place === only), env: places.env };
    const secrets = [...plantLogins(home, subset, (n) => fakeSecret(runtime.id, n)), ...Object.values(env).filter((value) => value !== undefined), urlSecret];
    return { label, home, run: await runStatus(runtime, home.ctx), secrets };
  };
  yield await state("all places and variables", envSecrets);
  yield await state("all places, no variable", {});
  for (const place of [...places.files, ...places.folders]) yield await state(`${place} alone`, {}, place);
  // One home for the variables: nothing in it changes between them.
  const bare = makeStatusHome(runtime, host);
  for (const [name, value] of Object.entries(envSecrets)) {
    const ctx = { ...bare.ctx, env: { ...bare.ctx.env, [name]: value } };
    yield { label: `${name} alone`, home: { ...bare, ctx, env: ctx.env }, run: await runStatus(runtime, ctx), secrets: [value, urlSecret] };
  }
}

export function statusAdapterSuite(runtime: StatusRuntime, everyRuntime: readonly StatusRuntime[] = listRuntimes()): void {
  let places: CredentialPlaces;
  beforeAll(async () => {
    places = await placesOf(runtime);
  });

  describe("contract fields", () => {
    it("the runtime declares every field of types.ts's StatusRuntime, well typed, and the registry finds it by its id", () => {
      expect(runtime.id).toMatch(/^[a-z0-9][a-z0-9-]*$/);
      for (const key of ["title", "description", "binary", "installHint", "loginHint"] as const) {
        expect(typeof runtime[key], key).toBe("string");
        expect(runtime[key].trim().length, key).toBeGreaterThan(0);
      }
      for (const key of ["externalLabel", "signInVerifiedAgainst"] as const) expect(["undefined", "string"], key).toContain(typeof runtime[key]);
      for (const key of ["pluginLoginHint", "signInLabel", "variant"] as const) expect(["undefined", "function"], key).toContain(typeof runtime[key]);
      expect(typeof runtime.headless.values).toBe("object");
      for (const key of ["resolveBinary", "isInstalled", "authStatus", "supportsDeviceLogin", "dataDir", "credentialLocations"] as const) expect(typeof runtime.status[key], key).toBe("function");
      expect(["undefined", "function"]).toContain(typeof runtime.status.planDisconnect);
      expect(typeof runtime.status.supportsDeviceLogin()).toBe("boolean");
      expect(getRuntime(` ${runtime.id.toUpperCase()} `)).toBe(runtime);
      expect(everyRuntime.filter((other) => other.id === runtime.id)).toHaveLength(1);
    });

    it("an empty home: not signed in, each facet's answer well formed, installed by the binary on PATH; naming credential places reads nothing", async () => {
      const home = makeStatusHome(runtime);
      runtime.status.credentialLocations({}, home.ctx);
      expect([...home.reader.inspected, ...home.reader.listed]).toEqual([]);
      const run = await runStatus(runtime, home.ctx);
      expectWellFormedRun(runtime, home, run, "empty home");
      expect(run.auth.connected).toBe(false);
      expect(run.installed).toBe(true);
      expectWellFormedReport(runtime, await reportOf(runtime, home.ctx), home.ctx.env, "empty home report");
    });

    it("a planted login (in every place, in each alone, with and without each credential variable): each answer well formed, only the documented fields", async () => {
      for await (const { label, home, run } of plantedStates(runtime, places)) {
        expectWellFormedRun(runtime, home, run, label);
        expectWellFormedReport(runtime, await reportOf(runtime, home.ctx), home.ctx.env, `${label}, report`);
      }
      // A runtime with no place in the home declares none: there is nothing of it for the rest to check.
      if (places.files.length + places.folders.length === 0) expect(runtime.status.credentialLocations({}, makeStatusHome(runtime).ctx)).toEqual({ files: [], folders: [], env: [] });
    });
  });

  it("status only: detection reads and never writes (the home byte for byte, no new file, its binary never run), nor does `bosun agents` outside bosun's folders", async () => {
    for (const planted of [false, true]) {
      const home = makeStatusHome(runtime, planted ? Object.fromEntries(places.env.map((name) => [name, "planted"])) : {});
      if (planted) plantLogins(home, places, () => "planted");
      const before = snapshotTree(home.root);
      await runStatus(runtime, home.ctx);
      await reportOf(runtime, home.ctx);
      await collectAgentReports(home.ctx, undefined);
      expect(snapshotTree(home.root), planted ? "planted home" : "empty home").toEqual(before);
      // The CLI keeps its own state (log, hook snapshot) in bosun's folders; nothing else may change.
      const bosunFolders = [home.paths.config, home.paths.data, home.paths.cache, home.paths.state].map((folder) => folder.slice(home.root.length + 1));
      const agentsOwn = (snapshot: Record<string, string>) => Object.entries(snapshot).filter(([path, entry]) => !entry.startsWith("d ") && !bosunFolders.some((folder) => path.startsWith(folder + "/")));
      expect((await runCli(["agents", "--json"], home.env, home.cwd)).code).toBe(0);
      expect(agentsOwn(snapshotTree(home.root))).toEqual(agentsOwn(before));
      expect(existsSync(join(home.binDir, `${runtime.binary}.ran`))).toBe(false);
    }
  });

  it("no secret in any output: the status and its report (and their JSON) for each planted state, `bosun agents --json` and `bosun agents` for all of it, each place and credential variable with a distinct fake secret", async () => {
    for await (const { label, home, run, secrets } of plantedStates(runtime, places)) {
      const report = await reportOf(runtime, home.ctx);
      expect(leaksIn([JSON.stringify(run), JSON.stringify(report)].join("\n"), secrets), label).toEqual([]);
      if (!label.startsWith("all")) continue;
      const json = await runCli(["agents", "--json"], home.env, home.cwd);
      const table = await runCli(["agents"], home.env, home.cwd);
      expect([json.code, table.code], label).toEqual([0, 0]);
      // The CLI's entry is the adapter's report, as the suite saw it.
      expect((JSON.parse(json.stdout) as { agents: AgentReport[] }).agents.find((agent) => agent.id === runtime.id), label).toEqual(report);
      const log = join(home.paths.state, "logs", "bosun.log");
      const outputs = [json.stdout, json.stderr, table.stdout, table.stderr, existsSync(log) ? readFileSync(log, "utf8") : ""];
      expect(leaksIn(outputs.join("\n"), secrets), label).toEqual([]);
    }
  });

  describe("odd files where it looks for credentials", () => {
    for (const oddity of ODDITIES) {
      it(`${oddity.name}, in each place in turn: not signed in or a display-safe error, no crash, no hang, nothing written, the others still report`, async () => {
        const everyPlaces = await Promise.all(everyRuntime.map(async (other) => ({ other, places: await placesOf(other) })));
        const clean = makeStatusHome(runtime);
        const baseline = portable(await collectAgentReports(clean.ctx, undefined), clean.root);
        const secret = fakeSecret(runtime.id, 200);
        for (const place of [...places.files, ...places.folders]) {
          const home = makeStatusHome(runtime);
          const path = join(home.root, place);
          mkdirSync(dirname(path), { recursive: true });
          oddity.make(path, secret);
          const before = snapshotTree(home.root);
          const release = oddity.name === "a FIFO" ? releaseFifoAfter(path, FIFO_RELEASE_MS) : () => undefined;
          const started = Date.now();
          let run: StatusRun | undefined;
          let thrown: unknown;
          let reports: AgentReport[];
          try {
            run = await runStatus(runtime, home.ctx).catch((error: unknown) => ((thrown = error), undefined));
            reports = await collectAgentReports(home.ctx, undefined);
          } finally {
            release();
          }
          const label = `${oddity.name} at ${place}`;
          expect(Date.now() - started, `${label}: took too long (blocked?)`).toBeLessThan(HANG_MS);
          // No crash: a throw is only a ProbeError, whose message is display-safe by design.
          if (thrown !== undefined) {
            expect(thrown, label).toBeInstanceOf(ProbeError);
            expectDisplaySafe((thrown as ProbeError).message, [secret], label);
          } else {
            expectWellFormedRun(runtime, home, run!, label);
            expect(run!.auth.connected, label).toBe(false);
            if (run!.auth.error !== undefined) expectDisplaySafe(run!.auth.error, [secret], label);
          }
          expect(home.reader.maxBytes.every((limit) => limit <= MAX_CREDENTIAL_BYTES), `${label}: read past the limit`).toBe(true);
          expect(snapshotTree(home.root), label).toEqual(before);
          // Every runtime still reports; one that does not look at this place reports as in an empty home.
          expect(reports.map((report) => report.id)).toEqual(everyRuntime.map((other) => other.id));
          const own = reports.find((report) => report.id === runtime.id)!;
          expect(own.auth.connected, label).toBe(false);
          if (own.auth.error !== undefined) expectDisplaySafe(own.auth.error, [secret], label);
          expect(leaksIn(JSON.stringify(reports), [secret]), label).toEqual([]);
          const unaffected = everyPlaces.filter(({ other, places: theirs }) => other !== runtime && !touches(place, [...theirs.files, ...theirs.folders])).map(({ other }) => other.id);
          const pick = (json: string) => (JSON.parse(json) as AgentReport[]).filter((report) => unaffected.includes(report.id));
          expect(pick(portable(reports, home.root)), label).toEqual(pick(baseline));
        }
      });
    }
  });
}
