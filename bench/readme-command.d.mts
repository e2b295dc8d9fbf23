export function readmeFirstCommand(root: string): { command: string; args: string[] };
