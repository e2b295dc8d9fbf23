// A bosun-like process creating task worktrees (for the concurrency test): argv is
// `<cwd> <dataDir> <session> <task>...`; the tasks are created at once; prints one JSON line of outcomes.
import { createTaskWorktree } from "../../../src/agent/worktrees/task-worktree.js";

const [cwd, dataDir, session, ...tasks] = process.argv.slice(2) as [string, string, string, ...string[]];
const outcomes = await Promise.allSettled(tasks.map((task) => createTaskWorktree({ cwd, dataDir, session, task, carryChanges: true })));
process.stdout.write(JSON.stringify(outcomes.map((outcome) => (outcome.status === "fulfilled" ? { path: outcome.value.path } : { error: String((outcome.reason as Error).message) }))) + "\n");
