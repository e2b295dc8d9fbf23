import type { AgentEvent } from "../events.js";
import type { CapMeter, CapReachedError } from "./limits.js";

/**
 * Holds one bosun sub-agent to its caps: counts its turns and the tokens and cost of each model
 * call from its events, and checks the time caps on a timer; the first cap reached calls `stop`
 * once. `price` gives a call's USD (null: the catalog has no price, the cost caps see 0).
 */
export function watchCaps(meter: CapMeter, price: (input: number, output: number) => number | null, stop: (reason: CapReachedError) => void): { onEvent(event: AgentEvent): void; dispose(): void } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const reached = (reason: CapReachedError | null) => {
    if (!reason || stopped) return;
    stopped = true;
    stop(reason);
  };
  const arm = () => {
    const ms = meter.msToTimeCap();
    if (ms === null || stopped) return;
    timer = setTimeout(
      () => {
        reached(meter.check());
        arm();
      },
      Math.max(0, ms) + 5,
    );
  };
  arm();
  return {
    onEvent(event) {
      if (event.type === "turn-start") reached(meter.turn(event.turn));
      else if (event.type === "reply-end" || event.type === "summary-end") {
        const input = event.usage.inputTokens ?? 0;
        const output = event.usage.outputTokens ?? 0;
        reached(meter.spend(input + output, price(input, output) ?? 0));
      }
    },
    dispose() {
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
