export function homeEnv(home: string): { PATH: string | undefined; HOME: string; XDG_CONFIG_HOME: string; XDG_DATA_HOME: string; XDG_CACHE_HOME: string; XDG_STATE_HOME: string };
