import type { QueueStore } from "./store.js";
import type { StoreAddress } from "./store-address.js";

/** Opens the store of `address`, checking that it answers, takes bosun's credentials and is recent enough (`StoreError` if not). */
export async function openStore(address: StoreAddress): Promise<QueueStore> {
  if (address.backend === "redis") return (await import("./redis-store.js")).openRedisStore(address);
  return (await import("./postgres-store.js")).openPostgresStore(address);
}
