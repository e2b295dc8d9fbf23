import { describe, expect, it } from "vitest";
import type { ConfigLayer } from "../../../src/kernel/config/config.js";
import type { BosunConfig } from "../../../src/app/config-schema.js";
import { bwrapArgs } from "../../../src/agent/sandbox/bwrap-args.js";
import { DEFAULT_MAX_OUTPUT_BYTES, sandboxSettings } from "../../../src/agent/sandbox/sandbox-settings.js";
import { configSchema } from "../../../src/app/config-schema.js";

const layer = (scope: "global" | "project", value: BosunConfig): ConfigLayer => ({ scope, file: `/${scope}/bosun.json`, value, document: null as never });

describe("sandbox settings", () => {
  it("default to auto, network off, nothing extra writable, the documented limits", () => {
    const settings = sandboxSettings([], "/home/me", null);
    expect(settings).toMatchObject({ mode: "auto", network: "off", writable: [], readable: [], env: [], ignored: [] });
    expect(settings.limits.outputBytes).toBe(DEFAULT_MAX_OUTPUT_BYTES);
  });

  it("your own bosun.json decides; ~ is your home", () => {
    const settings = sandboxSettings([layer("global", { sandbox: { mode: "off", network: "on", writable: ["~/cache", "/srv/x"], env: ["DATABASE_URL"], max_file_bytes: 4096 } })], "/home/me", null);
    expect(settings).toMatchObject({ mode: "off", network: "on", writable: ["/home/me/cache", "/srv/x"], env: ["DATABASE_URL"], ignored: [] });
    expect(settings.limits.fileBytes).toBe(4096);
  });

  it("a project's bosun.json may only make it stricter, and each thing it may not do is one line", () => {
    const settings = sandboxSettings(
      [
        layer("global", { sandbox: { mode: "required", max_output_bytes: 2048 } }),
        layer("project", { sandbox: { mode: "off", network: "on", writable: ["/etc", "/repo/build"], env: ["AWS_SECRET_ACCESS_KEY"], readable: ["~/.ssh"], max_output_bytes: 1 << 30 } }),
      ],
      "/home/me",
      "/repo",
    );
    expect(settings).toMatchObject({ mode: "required", network: "off", writable: ["/repo/build"], env: [], readable: [] });
    expect(settings.limits.outputBytes).toBe(2048);
    expect(settings.ignored).toEqual([
      '/project/bosun.json: sandbox.mode "off" is ignored: a project\'s bosun.json may only make the sandbox stricter (set it in your own bosun.json)',
      '/project/bosun.json: sandbox.network "on" is ignored: a project\'s bosun.json may only make the sandbox stricter (set it in your own bosun.json)',
      '/project/bosun.json: sandbox.writable "/etc" (outside the project) is ignored: a project\'s bosun.json may only make the sandbox stricter (set it in your own bosun.json)',
      "/project/bosun.json: sandbox.readable is ignored: a project's bosun.json may only make the sandbox stricter (set it in your own bosun.json)",
      "/project/bosun.json: sandbox.env is ignored: a project's bosun.json may only make the sandbox stricter (set it in your own bosun.json)",
    ]);
  });

  it("a section of the wrong shape is a config error naming the key", () => {
    const check = (sandbox: unknown) => configSchema.safeParse({ sandbox }).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    expect(check({ mode: "sometimes" })?.[0]).toMatch(/^sandbox\.mode: /);
    expect(check({ writable: ["relative/dir"] })).toEqual(["sandbox.writable.0: use an absolute path or one starting with ~/"]);
    expect(check({ env: ["NOT-A-NAME"] })?.[0]).toMatch(/^sandbox\.env\.0: use an environment variable name/);
    expect(check({ max_file_bytes: 12 })).toEqual(["sandbox.max_file_bytes: use 1024 or more"]);
    expect(check({ network: "on", colour: 1 })?.[0]).toMatch(/^sandbox: /);
    expect(check({ mode: "required", network: "off", writable: ["/x", "~/y"], readable: ["~"], env: ["A_B"] })).toBeUndefined();
  });
});

describe("bubblewrap's arguments", () => {
  it("read-only root, private /tmp, writable folders outer first, masks last, every namespace new", () => {
    const args = bwrapArgs({
      cwd: "/p/sub",
      tmpBytes: 4096,
      writable: ["/p/sub/deep", "/p", "/p"],
      maskedFiles: ["/h/.codex/auth.json", "/h/.aws/sso/cache/x.json"],
      maskedFolders: ["/h/.aws/sso/cache", "/h/.aws/sso/cache/inner"],
      network: "off",
      argv: ["/bin/bash", "-c", "true"],
    });
    expect(args.join(" ")).toBe(
      "--ro-bind / / --dev /dev --proc /proc --size 4096 --tmpfs /tmp --bind /p /p --bind /p/sub/deep /p/sub/deep " +
        "--tmpfs /h/.aws/sso/cache --remount-ro /h/.aws/sso/cache --ro-bind /dev/null /h/.codex/auth.json " +
        "--unshare-all --cap-drop ALL --die-with-parent --new-session --chdir /p/sub -- /bin/bash -c true",
    );
    expect(bwrapArgs({ cwd: "/", tmpBytes: 4096, writable: [], maskedFiles: [], maskedFolders: [], network: "on", argv: ["x"] })).toContain("--share-net");
  });
});
