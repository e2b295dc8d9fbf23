import type { ExternalKind } from "../kinds.js";
import { claudeStreamParser } from "./claude-stream.js";
import { codexStreamParser } from "./codex-stream.js";
import { cursorStreamParser } from "./cursor-stream.js";
import type { StreamParser } from "./external-events.js";
import { geminiStreamParser } from "./gemini-stream.js";
import { grokStreamParser } from "./grok-stream.js";
import { opencodeStreamParser } from "./opencode-stream.js";

/** A fresh parser for one run of `kind`'s headless event stream. */
export function streamParser(kind: ExternalKind): StreamParser {
  switch (kind) {
    case "claude":
      return claudeStreamParser();
    case "codex":
      return codexStreamParser();
    case "gemini":
      return geminiStreamParser();
    case "opencode":
      return opencodeStreamParser();
    case "cursor":
      return cursorStreamParser();
    case "grok":
      return grokStreamParser();
  }
}
