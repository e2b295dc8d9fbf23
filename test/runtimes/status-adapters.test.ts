// Every runtime in the registry passes the one status-adapter suite (test/shared/status-adapter.ts):
// a runtime added to listRuntimes() is tested here without a line more.
import { describe } from "vitest";
import { listRuntimes } from "../../src/runtimes/registry.js";
import { statusAdapterSuite } from "../shared/status-adapter.js";

describe.each(listRuntimes().map((runtime) => ({ id: runtime.id, runtime })))("status adapter $id", ({ runtime }) => {
  statusAdapterSuite(runtime);
});
