import { unlessUnreadable } from "./kit/adapter.js";
import { claudeSignInSources, readJsonObject, type ClaudeSource } from "./claude-signin.js";
import type { CredentialEdit, DetectionContext, DisconnectPlan } from "./kit/types.js";

/**
 * Signing Claude Code out, by hand rather than with `claude auth logout`: that command deletes the
 * whole `.credentials.json` (MCP server logins in it too) and rewrites `.claude.json` (new keys,
 * its own formatting, a backup folder). bosun takes out only the login itself: `claudeAiOauth`
 * (the file goes when nothing else is in it) and `primaryApiKey`, every other byte kept.
 *
 * Only when every source Claude Code would fall back to is one of those two; otherwise the plan
 * says which source keeps it signed in and where that one is removed.
 */
export function claudeDisconnectPlan(ctx: DetectionContext): DisconnectPlan {
  const sources = claudeSignInSources(ctx);
  if (sources.length === 0) return { action: "none", reason: "no Claude Code credentials found" };
  const stored: StoredSource[] = [];
  for (const source of sources) {
    if (source.kind !== "stored-login" && source.kind !== "login-key") return { action: "none", reason: whyNot(source, source === sources[0]) };
    stored.push(source);
  }
  const edits = stored.map((source): CredentialEdit => {
    if (source.kind === "login-key") return { kind: "remove-json-key", path: source.file, key: "primaryApiKey" };
    const onlyLogin = Object.keys(readJsonObject(ctx.files, source.file) ?? {}).every((key) => key === "claudeAiOauth");
    return onlyLogin ? { kind: "remove-file", path: source.file } : { kind: "remove-json-key", path: source.file, key: "claudeAiOauth" };
  });
  const winner = stored[0]!.file;
  return { action: "edit-credentials", mode: "external", authPath: unlessUnreadable(() => ctx.files.stat(winner)?.realPath) ?? winner, edits };
}

type StoredSource = Extract<ClaudeSource, { kind: "stored-login" | "login-key" }>;

/** Why bosun cannot sign Claude Code out, naming the source and where it is removed. */
function whyNot(source: Exclude<ClaudeSource, StoredSource>, inUse: boolean): string {
  const lead = inUse ? "" : "removing the stored login would leave Claude Code signed in: ";
  switch (source.kind) {
    case "provider":
      return `${lead}${source.variable} is on, so Claude Code uses ${source.provider}'s own login; sign out there, or unset ${source.variable}`;
    case "env":
      return `${lead}${source.variable} is set in the environment; unset it to sign Claude Code out`;
    case "profile-env":
      return `${lead}ANTHROPIC_FEDERATION_RULE_ID and ANTHROPIC_ORGANIZATION_ID are set in the environment; unset them to sign Claude Code out`;
    case "helper":
      return `${lead}Claude Code gets its key from the apiKeyHelper command in ${source.file}; remove it there`;
    case "profile":
      return `${lead}Claude Code signs in with the Anthropic profile ${source.file}; run \`ant auth logout\` or remove that profile`;
  }
}
