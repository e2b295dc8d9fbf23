import type { Context } from "hono";
import { streamSSE } from "hono/streaming";
import type { LiveFragment, LiveHub } from "./live-hub.js";

/** How often a stream says it is alive (a named `ping` event the page's watchdog sees). */
export const HEARTBEAT_MS = 10_000;

/**
 * `GET /live`: one stream per browser (the page's tabs share it). It starts with the current
 * fragment of every element (so a stream that reconnects repairs whatever it missed), then sends
 * each change as it happens (`fragment` events: `{target, html}`), and a `ping` every
 * `heartbeatMs`. It ends when the page leaves or the server stops (`closing`).
 */
export function liveRoute(hub: LiveHub, closing: AbortSignal, heartbeatMs = HEARTBEAT_MS, fresh?: () => Promise<void>): (c: Context) => Response {
  return (c) => {
    c.header("X-Accel-Buffering", "no");
    const response = streamSSE(c, async (stream) => {
      const queued: LiveFragment[] = [];
      let wake: (() => void) | null = null;
      const unsubscribe = hub.subscribe((fragment) => {
        queued.push(fragment);
        wake?.();
      });
      let onClosing = () => {};
      const ended = new Promise<void>((resolve) => {
        onClosing = () => resolve();
        stream.onAbort(resolve);
        closing.addEventListener("abort", onClosing, { once: true });
      });
      try {
        let sent = 0;
        const send = async (fragment: LiveFragment) => {
          if (fragment.id <= sent) return;
          sent = fragment.id;
          await stream.write(fragment.frame);
        };
        await stream.writeSSE({ event: "ping", data: "start" });
        // The first stream after none: the hub was not kept current meanwhile (the refresher waits for a stream).
        if (fresh && hub.streams === 1) await fresh().catch(() => undefined);
        for (const fragment of hub.latest()) await send(fragment);
        let done = false;
        void ended.then(() => {
          done = true;
          wake?.();
        });
        while (!done && !closing.aborted) {
          while (queued.length > 0) for (const fragment of queued.splice(0)) await send(fragment);
          const beat = new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, heartbeatMs);
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          await beat;
          wake = null;
          if (queued.length === 0 && !done) await stream.writeSSE({ event: "ping", data: String(Date.now()) });
        }
      } finally {
        closing.removeEventListener("abort", onClosing);
        unsubscribe();
        await stream.close();
      }
    });
    response.headers.set("Cache-Control", "no-store");
    return response;
  };
}
