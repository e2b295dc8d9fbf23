import type { Context, Hono } from "hono";
import type { SessionSummary } from "../agent/session/list.js";
import type { RunControlState } from "../app/run-control/protocol.js";
import { QueryError } from "./catalog-query.js";
import { problem } from "./problem.js";
import type { DashboardSources } from "./sources.js";
import { RunGoneError, type RunRequest, type WatchedRun } from "./live/run-watcher.js";
import { LiveRun } from "./views/live-run-view.js";
import { SessionsList, Transcript } from "./views/sessions-view.js";

/** The running `bosun run` processes, as the session routes use them (live/run-watcher.ts). */
export interface LiveRuns {
  runs(): WatchedRun[];
  forSession(session: string): WatchedRun | null;
  send(pid: number, request: RunRequest): Promise<{ ok: boolean; message: string }>;
  /** Resolves once the run's next state has arrived (or after `ms`). */
  nextState(pid: number, ms: number): Promise<void>;
}

export interface SessionRoutesOptions {
  sources: DashboardSources;
  /** The sessions list, shared with the live refresher. */
  sessions(): Promise<SessionSummary[]>;
  runs: LiveRuns;
  page(c: Context, title: string, body: unknown): Response | Promise<Response>;
  audit(message: string, fields: Record<string, unknown>): void;
}

const ANSWERS = new Set(["once", "session", "deny"]);
const QUESTION_ID = /^q\d{1,9}$/;
const AGENT_ID = /^[\w.-]{1,128}$/;
/** How long a page's action waits for the run to show its effect, so the panel it gets back is current. */
const SETTLE_MS = 500;

/** The ids of the sessions a run is working on now. */
export function liveSessions(runs: LiveRuns): Set<string> {
  return new Set(runs.runs().flatMap((run) => (run.state?.turn && run.state.turn.ended === null ? [run.state.turn.session] : [])));
}

/**
 * The Sessions view and its API: the list (with the sessions a run works on now), one session's
 * transcript and its live run (`GET /api/sessions/:id` has it as `live`), and what a page may ask of
 * that run: answer one of its approval questions, cancel one sub-agent or all of them, stop the
 * turn. Each action is a 404 when no run works on the session, a 409 with the run's reason when it
 * refuses (the question was answered on the terminal meanwhile, the sub-agent has ended), and a
 * line in the log.
 */
export function sessionRoutes(app: Hono, options: SessionRoutesOptions): void {
  const { sources, runs } = options;
  const live = (session: string): RunControlState | null => runs.forSession(session)?.state ?? null;

  app.get("/api/sessions", async (c) => c.json({ sessions: await options.sessions(), live: [...liveSessions(runs)] }));
  app.get("/api/sessions/:id", async (c) => {
    const found = await sources.session(c.req.param("id"));
    return found ? c.json({ ...found, live: live(found.summary.id) }) : problem(c, 404, `no session ${c.req.param("id")}`);
  });
  app.get("/api/runs", (c) => c.json({ runs: runs.runs().map((run) => run.state) }));
  app.get("/sessions", async (c) => options.page(c, "Sessions", <SessionsList sessions={await options.sessions()} live={liveSessions(runs)} />));
  app.get("/sessions/:id", async (c) => {
    const found = await sources.session(c.req.param("id"));
    if (!found) return problem(c, 404, `no session ${c.req.param("id")}`);
    return options.page(
      c,
      found.summary.title || found.summary.id,
      <>
        <p>
          <a href="/sessions">All sessions</a> · <code>{found.summary.id}</code> · {found.summary.model.providerID}/{found.summary.model.modelID} · <code>{found.summary.workdir}</code>
        </p>
        <LiveRun session={found.summary.id} run={live(found.summary.id)} now={Date.now()} />
        <Transcript id={found.summary.id} entries={found.transcript} />
      </>,
    );
  });

  /** Sends `request` to the run working on the session; the run's refusal is a 409, no run a 404. */
  const act = async (c: Context, request: RunRequest, audit: string, fields: Record<string, unknown> = {}): Promise<{ session: string; message: string } | Response> => {
    const session = c.req.param("id") as string;
    const run = runs.forSession(session);
    if (!run?.state?.turn || run.state.turn.ended !== null) return problem(c, 404, `no bosun run is working on session ${session} now`);
    const settled = runs.nextState(run.record.pid, SETTLE_MS);
    let reply: { ok: boolean; message: string };
    try {
      reply = await runs.send(run.record.pid, request);
    } catch (error) {
      if (error instanceof RunGoneError) return problem(c, 409, error.message);
      throw error;
    }
    if (!reply.ok) return problem(c, 409, reply.message);
    options.audit(audit, { session, pid: run.record.pid, ...fields, outcome: reply.message });
    await settled;
    return { session, message: reply.message };
  };
  /** The API's answer (the run's one line), or the page's: the live panel as it is now. */
  const respond = (c: Context, api: boolean, outcome: { session: string; message: string } | Response) => {
    if (outcome instanceof Response) return outcome;
    return api ? c.json({ ok: true, message: outcome.message }) : c.html(<LiveRun session={outcome.session} run={live(outcome.session)} now={Date.now()} />);
  };

  for (const api of [true, false]) {
    const base = `${api ? "/api" : ""}/sessions/:id`;
    app.post(`${base}/approvals/:question`, async (c) => {
      const question = c.req.param("question");
      const body = api ? await c.req.json().catch(() => undefined) : await c.req.parseBody();
      const answer = typeof body === "object" && body !== null ? (body as Record<string, unknown>).answer : undefined;
      if (typeof answer !== "string" || !ANSWERS.has(answer)) throw new QueryError("answer: use once, session or deny");
      if (!QUESTION_ID.test(question)) return problem(c, 404, `no question ${question}`);
      return respond(c, api, await act(c, { type: "answer", approval: question, answer: answer as "once" | "session" | "deny" }, "approval answered from the dashboard", { question, answer }));
    });
    app.post(`${base}/subagents/cancel`, async (c) => respond(c, api, await act(c, { type: "cancel-all" }, "sub-agents cancelled from the dashboard")));
    app.post(`${base}/subagents/:agent/cancel`, async (c) => {
      const agent = c.req.param("agent");
      if (!AGENT_ID.test(agent)) return problem(c, 404, `no sub-agent ${agent}`);
      return respond(c, api, await act(c, { type: "cancel", agent }, "sub-agent cancelled from the dashboard", { agent }));
    });
    app.post(`${base}/stop`, async (c) => respond(c, api, await act(c, { type: "stop" }, "turn stopped from the dashboard")));
  }
}
