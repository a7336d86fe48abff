export { createMcpApp, type McpApp, type McpAppDeps } from './app';
export { loadMcpConfig, type McpConfig } from './config';
export { buildToolCatalogue, type ToolCatalogue, type ToolDefinition, type ToolListing } from './tools';
export { negotiateProtocolVersion } from './methods/initialize';
