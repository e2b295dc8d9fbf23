// The environment of a bosun process whose home is a given folder: HOME and the XDG folders inside
// it, and this process's PATH (so that it finds node). Shared by the benches and the tests' temp
// homes (test/fixtures/temp-home.ts), which add what each needs.
import { join } from "node:path";

export function homeEnv(home) {
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    XDG_STATE_HOME: join(home, ".local", "state"),
  };
}
