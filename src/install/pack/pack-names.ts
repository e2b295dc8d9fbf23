// The name rules a pack's names follow, in pack.json and in every manifest that records them
// (a manifest in a project is repository content: a name that breaks them is not bosun's).
// Apart from the pack schema, so reading a manifest does not load zod.

/**
 * Artifact and hook names: what becomes a folder or file name in every runtime. 1-64 characters:
 * lower-case letters, digits and `-`, with single dots between parts (`gsd-planner.compact`);
 * which runtimes take a dotted name is `name-rules.ts`'s.
 */
export const ARTIFACT_NAME = /^(?=.{1,64}$)[a-z0-9][a-z0-9-]*(?:\.[a-z0-9][a-z0-9-]*)*$/;

/** A pack's name. */
export const PACK_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** A semantic version: `1.2.0`, `1.2.0-beta.1`, `1.2.0+build.5`. */
export const SEMVER = /^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/;
