import { describeError } from "./errors.js";
import { requireLazily } from "./fs/require.js";

/** Starts a program in the background (own process group, no stdio); returns "" or an error. */
export type DetachedSpawner = (command: string, args: string[]) => string;

export const spawnDetached: DetachedSpawner = (command, args) => {
  try {
    const { spawn } = requireLazily("node:child_process") as typeof import("node:child_process");
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.on("error", () => {});
    child.unref();
    return "";
  } catch (error) {
    return describeError(error);
  }
};
