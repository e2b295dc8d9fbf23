import type { ConfigLayer } from "../kernel/config/config.js";
import { wildcardMatch, wildcardMatcher } from "./wildcard.js";

export type PolicyEffect = "allow" | "deny";

/** The actions the catalog asks about; a statement may name them with wildcards. */
export const POLICY_ACTIONS = ["provider.use", "model.use"] as const;

/** One rule: `effect` for `action` on `resource` (both may use `*` and `?`). */
export interface PolicyStatement {
  action: string;
  effect: PolicyEffect;
  resource: string;
  /** Where it was written (config file and index), for `bosun policy check`. */
  origin?: { file: string; index: number; scope: string };
}

export interface PolicyDecision {
  effect: PolicyEffect;
  /** The statement that decided, or null when none matched and the fallback applied. */
  statement: PolicyStatement | null;
}

/**
 * An ordered list of statements. The last statement whose action and resource both match
 * decides; when none matches, the caller's fallback does. There is no specificity ranking:
 * order is the whole rule, so a later `deny *` overrides an earlier `allow x`.
 */
interface CompiledStatement {
  statement: PolicyStatement;
  matches: (resource: string) => boolean;
  literal: string;
}

/** How many answers a policy remembers per provider (and how many providers), at most. */
const REMEMBERED = 50_000;

export class Policy {
  private readonly byAction = new Map<string, CompiledStatement[]>();
  private readonly compiled: CompiledStatement[];
  private readonly modelDeniers = new Map<string, ((modelID: string) => boolean) | null>();

  constructor(readonly statements: readonly PolicyStatement[] = []) {
    this.compiled = statements.map((statement) => ({ statement, matches: wildcardMatcher(statement.resource), literal: foldCase(literalStart(statement.resource)) }));
  }

  get isEmpty(): boolean {
    return this.statements.length === 0;
  }

  evaluate(action: string, resource: string, fallback: PolicyEffect): PolicyDecision {
    return decide(this.statementsFor(action), resource, fallback);
  }

  /**
   * A decider for resources that all start with `prefix` (e.g. every model of one provider):
   * statements whose literal start rules them out are left out once, so thousands of models
   * cost little more than the statements that can concern them.
   */
  deciderFor(action: string, prefix: string): ((resource: string) => PolicyDecision) | null {
    const folded = foldCase(prefix);
    const candidates = this.statementsFor(action).filter(({ literal }) => folded.startsWith(literal) || literal.startsWith(folded));
    return candidates.length === 0 ? null : (resource) => decide(candidates, resource, "allow");
  }

  /**
   * Whether `model.use` denies a model of `providerID`, as a function of the model id, or null
   * when no statement can concern that provider. A policy never changes, so answers are
   * remembered: a rebuild looks each model up instead of matching it against the statements again
   * (and building its `provider/model` name to do so).
   */
  modelDenier(providerID: string): ((modelID: string) => boolean) | null {
    let denier = this.modelDeniers.get(providerID);
    if (denier !== undefined) return denier;
    const prefix = `${providerID}/`;
    const decide = this.deciderFor("model.use", prefix);
    denier = decide ? rememberAnswers((modelID) => decide(prefix + modelID).effect === "deny") : null;
    // Bounded, so ids that come and go in a long-running process cannot grow it forever.
    if (this.modelDeniers.size >= REMEMBERED) this.modelDeniers.clear();
    this.modelDeniers.set(providerID, denier);
    return denier;
  }

  /** Whether any statement can apply to `action` (lets callers skip work for the others). */
  mentions(action: string): boolean {
    return this.statementsFor(action).length > 0;
  }

  private statementsFor(action: string): CompiledStatement[] {
    let found = this.byAction.get(action);
    if (!found) {
      found = this.compiled.filter(({ statement }) => wildcardMatch(action, statement.action));
      this.byAction.set(action, found);
    }
    return found;
  }
}

function rememberAnswers(answer: (key: string) => boolean): (key: string) => boolean {
  const answers = new Map<string, boolean>();
  return (key) => {
    let found = answers.get(key);
    if (found === undefined) {
      found = answer(key);
      if (answers.size >= REMEMBERED) answers.clear();
      answers.set(key, found);
    }
    return found;
  };
}

function decide(candidates: CompiledStatement[], resource: string, fallback: PolicyEffect): PolicyDecision {
  for (let i = candidates.length - 1; i >= 0; i--) {
    const { statement, matches } = candidates[i]!;
    if (matches(resource)) return { effect: statement.effect, statement };
  }
  return { effect: fallback, statement: null };
}

/** The part of a pattern before its first wildcard, as the matcher sees it. */
function literalStart(pattern: string): string {
  const normalized = pattern.replaceAll("\\", "/");
  const first = normalized.search(/[*?]/);
  return first < 0 ? normalized : normalized.slice(0, first);
}

function foldCase(text: string): string {
  return process.platform === "win32" ? text.toLowerCase() : text;
}

/** One config file's statements, as read from it. */
export interface PolicyDocument {
  scope: string;
  file: string;
  statements: { action: string; effect: PolicyEffect; resource: string }[];
}

/**
 * The policy of a location from its config files given in merge order (global first). Unlike
 * other settings, the user's own statements outrank a project's: documents are read in reverse,
 * each keeping its own order, so the global file's statements come last and win.
 */
export function policyFromDocuments(documents: PolicyDocument[]): Policy {
  const statements: PolicyStatement[] = [];
  for (const doc of [...documents].reverse()) {
    doc.statements.forEach((statement, index) => statements.push({ ...statement, origin: { file: doc.file, index, scope: doc.scope } }));
  }
  return new Policy(statements);
}

/** The policy written in a location's config files (`policy` in each `bosun.json`, global first). */
export function policyFromConfig(layers: readonly ConfigLayer<{ policy?: PolicyDocument["statements"] }>[]): Policy {
  return policyFromDocuments(layers.map((layer) => ({ scope: layer.scope, file: layer.file, statements: layer.value.policy ?? [] })));
}
