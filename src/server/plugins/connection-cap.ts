import type { Socket } from "node:net";
import fp from "fastify-plugin";

// Open connections per client address are capped (docs/decisions/043-slow-requests-bounded.md): each
// open connection can hold a request's body in memory, and one address opening a thousand of them
// more than doubled the server's memory (docs/benchmarks.md, "Figures once in code comments"). A connection past the cap is closed as it opens,
// before a byte of it is read. Behind a proxy (TRUST_PROXY) every connection comes from the proxy,
// so the cap is the proxy's to apply and this plugin is not registered.

declare module "fastify" {
  interface FastifyInstance {
    /** Open connections per client address. */
    connectionsByAddress: ReadonlyMap<string, number>;
  }
}

export default fp<{ maxPerAddress: number }>(
  async (app, { maxPerAddress }) => {
    const open = new Map<string, number>();
    app.decorate("connectionsByAddress", open);
    app.server.on("connection", (socket: Socket) => {
      // A socket already gone has no address; Node's own listener closes it.
      const address = socket.remoteAddress;
      if (address === undefined) return;
      const count = open.get(address) ?? 0;
      if (count >= maxPerAddress) {
        socket.destroy();
        return;
      }
      open.set(address, count + 1);
      socket.once("close", () => {
        const left = (open.get(address) ?? 1) - 1;
        if (left === 0) open.delete(address);
        else open.set(address, left);
      });
    });
  },
  { name: "connection-cap" },
);
