import { html } from "../views/html.js";
import type { RunControlState } from "../../app/run-control/protocol.js";
import type { DashboardSources } from "../sources.js";
import { ApprovalsBanner, LiveRun, liveRunId } from "../views/live-run-view.js";
import { Transcript } from "../views/sessions-view.js";
import type { LiveHub } from "./live-hub.js";
import type { RunWatcher, WatchedRun } from "./run-watcher.js";

/** How often a live panel with running sub-agents is drawn again while a page is open (their times move on). */
const TICK_MS = 1_000;
/** The least time between two pushes of one session's transcript (a run writes it in bursts). */
const TRANSCRIPT_MS = 150;

/**
 * Pushes what the running `bosun run` processes do to the open pages: a session's live panel and
 * the questions banner on each change of its run, the session's transcript when the run reported
 * events (read again from its file, at most every TRANSCRIPT_MS), the sessions list when a run
 * starts or ends a turn, and the panels again every second while sub-agents run.
 */
export class LiveRunPublisher {
  private ticker: NodeJS.Timeout | null = null;
  private readonly transcripts = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly runs: RunWatcher,
    private readonly hub: LiveHub,
    private readonly sources: DashboardSources,
    private readonly listChanged: () => void,
  ) {}

  start(): void {
    this.ticker = setInterval(() => {
      if (this.hub.streams === 0) return;
      for (const run of this.runs.runs()) if (run.state?.turn && run.state.subagents.some((agent) => agent.status === "running")) this.panel(run.state.turn.session, run.state);
    }, TICK_MS);
    this.ticker.unref();
  }

  stop(): void {
    if (this.ticker) clearInterval(this.ticker);
    for (const timer of this.transcripts.values()) clearTimeout(timer);
  }

  changed(run: WatchedRun, previous: RunControlState | null, gone: boolean): void {
    const session = run.state?.turn?.session ?? null;
    const before = previous?.turn?.session ?? null;
    if (before && before !== session) this.panel(before, null);
    if (session) {
      this.panel(session, gone ? null : run.state);
      if (run.state && (gone || run.state.changes !== previous?.changes)) this.transcript(session);
    }
    void html(<ApprovalsBanner runs={this.runs.runs().map((other) => other.state!)} />).then((text) => this.hub.publish("approvals-banner", text));
    if (gone || previous?.turn?.session !== session || (previous?.turn?.ended === null) !== (run.state?.turn?.ended === null)) this.listChanged();
  }

  private panel(session: string, state: RunControlState | null): void {
    void html(<LiveRun session={session} run={state} now={Date.now()} />).then((text) => this.hub.publish(liveRunId(session), text));
  }

  private transcript(session: string): void {
    if (this.transcripts.has(session)) return;
    const timer = setTimeout(() => {
      this.transcripts.delete(session);
      void this.sources.session(session).then(
        async (found) => {
          if (found) this.hub.publish(`transcript-${session}`, await html(<Transcript id={session} entries={found.transcript} />));
        },
        () => undefined,
      );
    }, TRANSCRIPT_MS);
    timer.unref();
    this.transcripts.set(session, timer);
  }
}
