import { isAbsolute, join } from "node:path";
import { claudeConfigDir } from "./claude-signin.js";
import { codexHome } from "./codex-signin-config.js";
import { geminiDir } from "./gemini-settings.js";
import type { DetectionContext } from "./kit/types.js";

/** Where an agent CLI keeps what it writes while it runs: its config, sessions, logs, caches. */
export interface AgentFolders {
  /** Folders it writes (created when missing, as the CLI would). */
  folders: string[];
  /** Single files it writes beside other people's files (bound only when they exist). */
  files: string[];
}

/**
 * The folders each agent CLI writes when it runs headless, from the same variables its detection
 * reads: in a sandbox these (and its working folder) are all it may write. Measured on the pinned
 * CLIs (README "The user's agents as sub-agents"); Cursor's from its documentation.
 */
export function agentFolders(id: string, ctx: Pick<DetectionContext, "env" | "home" | "cwd">): AgentFolders {
  const xdg = (name: string, fallback: string) => {
    const value = ctx.env[name];
    return value && isAbsolute(value) ? value : join(ctx.home, fallback);
  };
  switch (id) {
    case "claude":
      return { folders: [claudeConfigDir(ctx), join(xdg("XDG_CACHE_HOME", ".cache"), "claude-cli-nodejs")], files: ctx.env.CLAUDE_CONFIG_DIR === undefined ? [join(ctx.home, ".claude.json")] : [] };
    case "codex":
      return { folders: [codexHome(ctx.env, ctx.home, ctx.cwd).dir], files: [] };
    case "gemini":
      return { folders: [geminiDir(ctx)], files: [] };
    case "opencode":
      return {
        folders: [
          join(xdg("XDG_CONFIG_HOME", ".config"), "opencode"),
          join(xdg("XDG_DATA_HOME", join(".local", "share")), "opencode"),
          join(xdg("XDG_STATE_HOME", join(".local", "state")), "opencode"),
          join(xdg("XDG_CACHE_HOME", ".cache"), "opencode"),
        ],
        files: [],
      };
    case "cursor":
      return { folders: [ctx.env.CURSOR_CONFIG_DIR && isAbsolute(ctx.env.CURSOR_CONFIG_DIR) ? ctx.env.CURSOR_CONFIG_DIR : join(ctx.home, ".cursor"), join(xdg("XDG_CONFIG_HOME", ".config"), "cursor")], files: [] };
    case "grok":
      return { folders: [join(ctx.home, ".grok")], files: [] };
    default:
      return { folders: [], files: [] };
  }
}
