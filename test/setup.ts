import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// No test may touch the real home folder: every worker starts with HOME, BOSUN_HOME and the XDG
// folders pointing into a throwaway folder. Tests that need their own layout pass an explicit env.
const sandbox = mkdtempSync(join(tmpdir(), "bosun-test-home-"));
process.env.HOME = sandbox;
process.env.BOSUN_HOME = join(sandbox, "bosun-home");
for (const name of ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"]) {
  process.env[name] = join(sandbox, name.toLowerCase());
}
delete process.env.BOSUN_DEBUG;
