/** Whether bubblewrap can contain commands on this machine: its path, or why not (one line). */
export type BwrapCheck = { ok: true; bwrap: string } | { ok: false; reason: string };
