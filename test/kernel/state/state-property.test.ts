import { describe, expect, it } from "vitest";
import { batch } from "../../../src/kernel/state/batch.js";
import { Scope } from "../../../src/kernel/state/scope.js";
import { State, type Registration } from "../../../src/kernel/state/state.js";
import { pick, seededRandom } from "../../fixtures/random.js";

const SEQUENCES = Number(process.env.BOSUN_STATE_SEQUENCES ?? 600);

/** Edits that do not commute, so replaying them in another order gives another list. */
type Edit = { kind: "push" | "double" | "reverse" | "insert" | "drop"; k: number; async: boolean };

function apply(edit: Edit, list: number[]): void {
  if (edit.kind === "push") list.push(edit.k);
  else if (edit.kind === "double") for (let i = 0; i < list.length; i++) list[i] = list[i]! * 2 + edit.k;
  else if (edit.kind === "reverse") list.reverse();
  else if (edit.kind === "insert") list.splice(edit.k % (list.length + 1), 0, edit.k);
  else list.splice(edit.k % Math.max(1, list.length), 1);
}

function replay(edits: Edit[]): number[] {
  const list: number[] = [];
  for (const edit of edits) apply(edit, list);
  return list;
}

interface Active {
  edit: Edit;
  registration: Registration | undefined;
  scope: number;
  gone: boolean;
}

/**
 * Random sequences of register / dispose / scope close / reload / (nested, sometimes failing)
 * batches, some run concurrently: after each step the committed value equals a replay, from
 * scratch, of the registrations still active, in the order they were made.
 */
async function runSequence(seed: number): Promise<void> {
  const random = seededRandom(seed);
  const state = new State<number[], number[]>({ initial: () => [], draft: (value) => value });
  const scopes = [new Scope(), new Scope(), new Scope()];
  const active: Active[] = [];
  const expected = () => replay(active.filter((a) => !a.gone).map((a) => a.edit));

  const register = async () => {
    const kinds: Edit["kind"][] = ["push", "double", "reverse", "insert", "drop"];
    const edit: Edit = { kind: kinds[pick(random, kinds.length)]!, k: pick(random, 7), async: random() < 0.3 };
    const scope = pick(random, scopes.length);
    const entry: Active = { edit, registration: undefined, scope, gone: false };
    active.push(entry);
    entry.registration = await state.transform(scopes[scope]!, (draft) => {
      if (!edit.async) return apply(edit, draft);
      return Promise.resolve().then(() => apply(edit, draft));
    });
  };
  const dispose = async () => {
    const live = active.filter((a) => !a.gone && a.registration);
    const target = live[pick(random, Math.max(1, live.length))];
    if (!target) return;
    target.gone = true;
    await target.registration!.dispose();
    if (random() < 0.3) await target.registration!.dispose();
  };
  const closeScope = async () => {
    const index = pick(random, scopes.length);
    for (const a of active) if (a.scope === index) a.gone = true;
    await scopes[index]!.close();
    scopes[index] = new Scope();
  };
  const step = async (depth: number): Promise<void> => {
    const roll = random();
    if (roll < 0.35) await register();
    else if (roll < 0.55) await dispose();
    else if (roll < 0.62) await closeScope();
    else if (roll < 0.72) await state.reload();
    else if (roll < 0.82) await Promise.all([register(), register(), dispose()]);
    else if (depth < 2) {
      const fails = random() < 0.25;
      const inner = 1 + pick(random, 4);
      await batch(async () => {
        for (let i = 0; i < inner; i++) await step(depth + 1);
        if (fails) throw new Error("batch failed on purpose");
      }).catch((error: unknown) => {
        if (!fails) throw error;
      });
    }
  };
  for (let i = 0; i < 12 + pick(random, 12); i++) {
    await step(0);
    expect(state.get(), `seed ${seed}, step ${i}`).toEqual(expected());
  }
}

describe("State (property)", () => {
  it(`always commits the replay of the active transforms in registration order (${SEQUENCES} seeded sequences)`, async () => {
    for (let seed = 1; seed <= SEQUENCES; seed++) await runSequence(seed);
  });
});
