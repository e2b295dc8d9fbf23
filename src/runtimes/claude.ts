import { join } from "node:path";
import { defineStatusAdapter, notSignedIn, signedIn, stopOnReadError } from "./adapter.js";
import { isRegularFile, presentFile } from "./detect/file-reader.js";
import { envIsSet, envPath } from "./detect/env.js";
import type { DetectionContext, Runtime } from "./types.js";

export const CLAUDE_ENV_KEY = "ANTHROPIC_API_KEY";

/** `$CLAUDE_CONFIG_DIR/.credentials.json`, else `~/.claude/.credentials.json`. */
export function claudeCredentialsPath(ctx: DetectionContext): string {
  return join(envPath(ctx.env, "CLAUDE_CONFIG_DIR", ctx.home, ctx.cwd) ?? join(ctx.home, ".claude"), ".credentials.json");
}

const status = defineStatusAdapter({
  id: "claude",
  binary: "claude",
  // The credentials file is only looked at (a non-empty regular file), never read.
  authStatus: (_config, ctx) =>
    stopOnReadError(() => {
      if (envIsSet(ctx.env, CLAUDE_ENV_KEY)) return signedIn("env", CLAUDE_ENV_KEY);
      const file = presentFile(ctx.files, claudeCredentialsPath(ctx));
      return file ? signedIn("external", file.shownPath) : notSignedIn("");
    }),
  // A key in the environment stays in charge: removing the file would not sign Claude Code out.
  async planDisconnect(_config, ctx) {
    if (envIsSet(ctx.env, CLAUDE_ENV_KEY)) return { action: "none", reason: `${CLAUDE_ENV_KEY} is set in the environment; unset it to sign Claude Code out` };
    const path = claudeCredentialsPath(ctx);
    if (isRegularFile(ctx.files, path)) return { action: "remove-file", mode: "external", path };
    return { action: "none", reason: "no Claude Code credentials found" };
  },
});

export const claude: Runtime = {
  id: "claude",
  title: "Claude Code",
  description: "Anthropic's Claude Code CLI, run headless with `claude -p`.",
  binary: "claude",
  installHint: "npm install -g @anthropic-ai/claude-code",
  loginHint: "claude auth login --claudeai (or --console, --sso), or set ANTHROPIC_API_KEY",
  headless: {
    values: { binary: "claude", model: "", permission_mode: "bypassPermissions", allowed_tools: "Bash,Read,Edit", bare: false },
  },
  status,
};
