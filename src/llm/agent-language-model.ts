import type { LanguageModel } from "ai";

/** A model object (the AI SDK also accepts gateway id strings, which bosun never uses). */
export type AgentLanguageModel = Exclude<LanguageModel, string>;
