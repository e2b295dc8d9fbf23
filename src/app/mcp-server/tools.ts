import { agentsTool } from "./agents-tool.js";
import { catalogSearchTool } from "./catalog-search-tool.js";
import { delegateTool } from "./delegate-tool.js";
import { doctorTool } from "./doctor-tool.js";
import { installedPacksTool } from "./installed-packs-tool.js";
import type { ServerTool } from "./tool.js";

/** What `bosun mcp serve` offers, in the order a caller lists them: the four read-only tools, then delegate. */
export const SERVER_TOOLS: readonly ServerTool[] = [agentsTool, installedPacksTool, catalogSearchTool, doctorTool, delegateTool];
