import Fastify from "fastify";

// The machine's HTTP ceiling for bench:load: Fastify's hello world (no hooks, no database), in its
// own process like the app, loaded by the same generator. It tells how much of a request's cost
// is Node and HTTP alone.

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ host: "127.0.0.1", port: 0 });
const address = app.server.address();
process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
process.on("SIGTERM", () => {
  void app.close().then(() => process.exit(0));
});
