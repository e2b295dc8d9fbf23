import { defineStatusAdapter, notSignedIn, signedIn } from "./kit/adapter.js";
import { configuredBinary, locateBinary } from "./kit/detect/binary.js";
import { isRegularFile } from "./kit/detect/file-reader.js";
import type { Env } from "../kernel/paths.js";
import { ProbeError } from "./kit/probe-error.js";
import type { StatusRuntime, RuntimeConfig } from "./kit/types.js";

export const DEFAULT_A0_HOST = "http://localhost:80";
/** Where Agent Zero's Docker image keeps `a0` when it is not on PATH. */
export const DOCKER_A0_BINARY = "/opt/venv/bin/a0";
export const A0_PROBE_TIMEOUT_MS = 2_000;

/** Where to reach Agent Zero: the host to connect to and the text to show for it. */
export interface A0Target {
  hostname: string;
  port: number;
  /** The host as configured, without any `user:password@` part. */
  shown: string;
}

/** A host value bosun cannot connect to; the message is safe to show. */
export class A0HostError extends ProbeError {
  override name = "A0HostError";
  constructor(
    readonly shown: string,
    readonly problem: string,
  ) {
    super(`Agent Zero host ${shown} ${problem}`);
  }
}

/** Config `host` → `AGENT_ZERO_HOST` → the local default (each trimmed; blank skipped). */
export function resolveA0Host(config: RuntimeConfig, env: Env): string {
  const configured = typeof config.host === "string" ? config.host.trim() : "";
  return configured || env.AGENT_ZERO_HOST?.trim() || DEFAULT_A0_HOST;
}

/**
 * Parses a host the way Agent Zero does: `http://` is assumed without a scheme, the hostname
 * defaults to `localhost`, the port to 443 for https and 80 otherwise. Credentials in the URL
 * are dropped from what is shown.
 */
export function parseA0Host(host: string): A0Target {
  const schemeEnd = host.indexOf("://");
  const scheme = schemeEnd >= 0 ? host.slice(0, schemeEnd).toLowerCase() : "http";
  const prefix = schemeEnd >= 0 ? host.slice(0, schemeEnd + 3) : "";
  const rest = host.slice(prefix.length);
  const authorityEnd = rest.search(/[/?#]/);
  const authority = authorityEnd >= 0 ? rest.slice(0, authorityEnd) : rest;
  const hostPort = authority.slice(authority.lastIndexOf("@") + 1);
  const shown = prefix + hostPort + rest.slice(authority.length);

  let hostname: string;
  let portText: string;
  if (hostPort.startsWith("[")) {
    const close = hostPort.indexOf("]");
    if (close < 0) throw new A0HostError(shown, "has an unclosed '[' in its address");
    hostname = hostPort.slice(1, close);
    const after = hostPort.slice(close + 1);
    if (after && !after.startsWith(":")) throw new A0HostError(shown, "has text after its address");
    portText = after.slice(1);
  } else {
    const colon = hostPort.lastIndexOf(":");
    hostname = colon >= 0 ? hostPort.slice(0, colon) : hostPort;
    portText = colon >= 0 ? hostPort.slice(colon + 1) : "";
  }
  let port = scheme === "https" ? 443 : 80;
  if (portText !== "") {
    if (!/^\d{1,5}$/.test(portText) || Number(portText) > 65_535) throw new A0HostError(shown, "has an invalid port");
    port = Number(portText);
  }
  return { hostname: hostname.toLowerCase() || "localhost", port, shown };
}

/** The config check for `agents.a0.host`. */
export function a0HostProblem(host: string): string | null {
  if (host.trim() === "") return null;
  try {
    parseA0Host(host.trim());
    return null;
  } catch (error) {
    return error instanceof A0HostError ? error.problem : "is not a host";
  }
}

export const a0: StatusRuntime = {
  id: "a0",
  title: "Agent Zero (headless)",
  description: "Delegate to this or another Agent Zero instance through `a0 headless`.",
  binary: "a0",
  installHint: "pip install git+https://github.com/agent0ai/a0-connector.git@development",
  externalLabel: "host reachable",
  loginHint: "start Agent Zero, or set AGENT_ZERO_HOST (or agents.a0.host in bosun.json) to where it runs",
  headless: {
    values: { binary: "a0", host: "" },
    check: { host: a0HostProblem },
  },
  status: defineStatusAdapter({
    id: "a0",
    binary: "a0",
    resolveBinary(config, ctx) {
      const binary = configuredBinary(config, "a0", ctx.home);
      if (binary === "a0" && !locateBinary(binary, ctx) && isRegularFile(ctx.files, DOCKER_A0_BINARY)) return DOCKER_A0_BINARY;
      return binary;
    },
    // Signed in means the host answers on its port; the login itself is the skill's business.
    async authStatus(config, ctx) {
      const host = resolveA0Host(config, ctx.env);
      let target: A0Target;
      try {
        target = parseA0Host(host);
      } catch (error) {
        if (!(error instanceof A0HostError)) throw error;
        return { ...notSignedIn(error.shown), error: error.message };
      }
      const reachable = await ctx.probeSocket(target.hostname, target.port, A0_PROBE_TIMEOUT_MS);
      return reachable ? signedIn("external", target.shown) : notSignedIn(target.shown);
    },
    // Its login is kept by the Agent Zero instance (a Docker container), not on this machine; a
    // password in the host's URL is the URL rule's to catch, not a credential variable of a0's.
    credentialLocations: () => ({ files: [], folders: [], env: [] }),
  }),
};
