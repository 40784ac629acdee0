import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startPostgresCluster, type PostgresCluster } from "../../../test/postgres-cluster.js";
import { socketDirectory } from "./embedded-postgres.js";

// The embedded server's own connections go through its Unix-domain socket, not loopback TCP
// (docs/decisions/077-embedded-postgresql-over-a-unix-socket.md); the TCP port stays for other tools.

const clusters: PostgresCluster[] = [];
afterAll(async () => {
  for (const cluster of clusters) await cluster.destroy();
});

/** How a connection reached the server: its client address, null for a Unix-domain socket. */
async function clientAddress(connectionString: string): Promise<string | null> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return (await client.query<{ address: string | null }>("select host(inet_client_addr()) as address")).rows[0]?.address ?? null;
  } finally {
    await client.end();
  }
}

describe("the embedded server's socket", () => {
  it("connects through the cluster directory's Unix socket, and TCP still answers", async () => {
    const cluster = await startPostgresCluster();
    clusters.push(cluster);
    expect(new URL(cluster.url).searchParams.get("host")).toMatch(/\/postgres$/);
    expect(await clientAddress(cluster.url)).toBeNull();
    const tcp = new URL(cluster.url);
    tcp.search = "";
    expect(await clientAddress(tcp.toString())).toBe("127.0.0.1");
  });

  it("uses no socket where its path would be too long for one, or would need quoting", () => {
    expect(socketDirectory("/tmp/errandly-abc/postgres", 54321)).toBe("/tmp/errandly-abc/postgres");
    expect(socketDirectory(`/${"d".repeat(100)}/postgres`, 54321)).toBeNull();
    expect(socketDirectory("/tmp/my data/postgres", 54321)).toBeNull();
    expect(socketDirectory("/tmp/it's/postgres", 54321)).toBeNull();
  });
});
