/** The four things a sub-agent (or a whole tree) can be capped on. */
export const CAP_NAMES = ["turns", "tokens", "seconds", "costUsd"] as const;
export type CapName = (typeof CAP_NAMES)[number];

/** Caps on one sub-agent, or on a whole tree: absent means no cap. Tokens count input and output. */
export type Caps = Partial<Record<CapName, number>>;

/** `bosun.json` `subagents.limits`: caps on each sub-agent, and on the whole tree (all sub-agents together). */
export interface SubagentLimits {
  child: Caps;
  tree: Caps;
}

/** How a cap reads in a report: `stopped: tokens cap (20,000)`. */
export function capLabel(cap: CapName, value: number): string {
  if (cap === "costUsd") return `cost cap ($${value})`;
  if (cap === "seconds") return `time cap (${value} s)`;
  return `${cap} cap (${value.toLocaleString("en-US")})`;
}

/** The caps of `base` with `narrower` over them where it is lower: an override can only narrow. */
export function narrowCaps(base: Caps, narrower: Caps | undefined): Caps {
  const caps: Caps = { ...base };
  for (const name of CAP_NAMES) {
    const value = narrower?.[name];
    if (value === undefined) continue;
    const current = caps[name];
    caps[name] = current === undefined ? value : Math.min(current, value);
  }
  return caps;
}

/** What one sub-agent (or a tree) has used so far. */
export interface Usage {
  turns: number;
  tokens: number;
  costUsd: number;
}

/** The first cap `used` (after `elapsedMs`) is over, or null. A cap is over once the use reaches it (turns: goes past it). */
export function capReached(caps: Caps, used: Usage, elapsedMs: number): CapName | null {
  if (caps.turns !== undefined && used.turns > caps.turns) return "turns";
  if (caps.tokens !== undefined && used.tokens >= caps.tokens) return "tokens";
  if (caps.costUsd !== undefined && used.costUsd >= caps.costUsd) return "costUsd";
  if (caps.seconds !== undefined && elapsedMs >= caps.seconds * 1000) return "seconds";
  return null;
}

/** Why a sub-agent was stopped by a cap: which one, on the sub-agent or on the tree. */
export class CapReachedError extends Error {
  override name = "CapReachedError";
  constructor(
    readonly cap: CapName,
    readonly value: number,
    readonly scope: "child" | "tree",
  ) {
    super(`stopped: ${scope === "tree" ? "the tree's " : ""}${capLabel(cap, value)}`);
  }
}

/**
 * Counts what one sub-agent uses and what its tree uses, and says when a cap is reached: the
 * sub-agent's own, or the tree's (shared by every sub-agent of the tree). Pure apart from the
 * clock it is given.
 */
export class CapMeter {
  readonly used: Usage = { turns: 0, tokens: 0, costUsd: 0 };
  private readonly started: number;

  constructor(
    private readonly caps: Caps,
    private readonly tree: TreeMeter,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  /** A model call starts (the turn count is the highest turn seen). */
  turn(turn: number): CapReachedError | null {
    if (turn > this.used.turns) {
      this.tree.used.turns += turn - this.used.turns;
      this.used.turns = turn;
    }
    return this.check();
  }

  /** Tokens and cost of a model call that ended. */
  spend(tokens: number, costUsd: number): CapReachedError | null {
    this.used.tokens += tokens;
    this.used.costUsd += costUsd;
    this.tree.used.tokens += tokens;
    this.tree.used.costUsd += costUsd;
    return this.check();
  }

  /** The cap reached now (the time caps move with the clock), or null. */
  check(): CapReachedError | null {
    const own = capReached(this.caps, this.used, this.now() - this.started);
    if (own) return new CapReachedError(own, this.caps[own]!, "child");
    return this.tree.check();
  }

  /** Milliseconds until the nearer time cap (the sub-agent's or the tree's), or null when neither has one. */
  msToTimeCap(): number | null {
    const own = this.caps.seconds === undefined ? null : this.caps.seconds * 1000 - (this.now() - this.started);
    const tree = this.tree.msToTimeCap();
    if (own === null) return tree;
    return tree === null ? own : Math.min(own, tree);
  }
}

/** What a whole tree has used, against the tree's caps. */
export class TreeMeter {
  readonly used: Usage = { turns: 0, tokens: 0, costUsd: 0 };
  private readonly started: number;

  constructor(
    readonly caps: Caps,
    private readonly now: () => number = Date.now,
  ) {
    this.started = now();
  }

  check(): CapReachedError | null {
    const cap = capReached(this.caps, this.used, this.now() - this.started);
    return cap ? new CapReachedError(cap, this.caps[cap]!, "tree") : null;
  }

  msToTimeCap(): number | null {
    return this.caps.seconds === undefined ? null : this.caps.seconds * 1000 - (this.now() - this.started);
  }
}
