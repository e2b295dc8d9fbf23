import type { Boot } from "../app/start.js";
import type { Output } from "./output.js";

/**
 * What one subsystem contributes to `bosun status`: its state and a one-line detail, optional
 * extra lines for the text screen, optional data for the JSON (merged into its entry), and an
 * optional part of the one-line summary.
 */
export interface SubsystemStatus {
  state: "not-set-up" | "ready" | "attention";
  detail: string;
  lines?: string[];
  data?: Record<string, unknown>;
  summary?: string;
  /** Problems of plugins found while running them, shown with each plugin (by name). */
  pluginProblems?: Record<string, string>;
  /** The one thing to do next for this subsystem, if anything (with the command to run). */
  next?: string;
}

/** Builds one subsystem's status; each subsystem keeps its own in its own file. */
export type SubsystemStatusSource = (boot: Boot, output: Output) => Promise<SubsystemStatus>;
