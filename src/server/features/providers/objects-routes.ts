import type { Readable } from "node:stream";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import {
  objectPathResponseSchema,
  setIdDocumentBodySchema,
  setProfilePhotoBodySchema,
  uploadRequestSchema,
  uploadUrlResponseSchema,
} from "../../../shared/providers.js";
import { uploadRule } from "../../../shared/upload-rules.js";
import type { ObjectStorage } from "../../adapters/storage/storage.js";
import { requireUser } from "../../plugins/auth.js";
import { viewerOrNull } from "../../policy.js";
import { rateLimit } from "../../plugins/rate-limit.js";
import { completeUpload, createUpload, readObject, receiveLocalUpload } from "./uploads.js";
import { errorResponses } from "../../http-errors.js";

const LARGEST = uploadRule(null).maxBytes;

/** Reads at most `max` bytes; more than that is "too_large" and nothing is kept. */
async function readLimited(stream: Readable, max: number): Promise<Buffer | "too_large"> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > max) return "too_large";
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

const errors = errorResponses(400, 401, 404, 410, 413, 415);

const objectsRoutes: FastifyPluginAsyncZod<{ storage: ObjectStorage }> = async (app, { storage }) => {
  const { ctx } = app;

  app.post(
    "/api/objects/upload",
    {
      config: { auth: "user" },
      preHandler: rateLimit(ctx.db, ctx.now, { name: "object-upload", max: 40, windowMs: 900_000, key: (r) => r.user?.id ?? r.ip }),
      schema: {
        tags: ["providers"],
        operationId: "createUpload",
        summary: "Opens an upload and returns where to send the file",
        // The contract takes no body; a POST without one reaches validation as null. {} and
        // {kind} are accepted too (docs/decisions/009-uploads-and-storage.md).
        body: uploadRequestSchema.nullish(),
        response: { 200: uploadUrlResponseSchema, ...errorResponses(429), ...errors },
      },
    },
    async (request) => createUpload(ctx, storage, requireUser(request).id, request.body?.kind ?? null),
  );

  // The browser's PUT of the file itself (local storage). Any content type is taken as raw bytes:
  // the declared type is ignored and the bytes are checked instead.
  const rawBodies: FastifyPluginAsyncZod = async (raw) => {
    raw.removeAllContentTypeParsers();
    raw.addContentTypeParser("*", (_request, payload, done) => done(null, payload));
    raw.put(
      "/api/objects/put/:token",
      {
        // The handler reads the file as it streams in: it holds no place among the requests at work (plugins/admission.ts).
        config: { auth: "user", admission: false },
        schema: {
          tags: ["providers"],
          operationId: "putUploadedFile",
          summary: "Receives the bytes of an opened upload",
          params: z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, { error: "token is invalid" }) }),
          response: { 200: z.object({ ok: z.literal(true) }), ...errors },
        },
      },
      async (request) => {
        const declared = Number(request.headers["content-length"] ?? "0");
        // A PUT without a body never reaches a content-type parser, so there is no stream: an empty file.
        const stream = request.body as Readable | undefined;
        const body = declared > LARGEST ? "too_large" : stream ? await readLimited(stream, LARGEST) : Buffer.alloc(0);
        await receiveLocalUpload(ctx, storage, requireUser(request).id, request.params.token, body);
        return { ok: true as const };
      },
    );
  };
  await app.register(rawBodies);

  app.put(
    "/api/provider/set-id-document",
    {
      config: { auth: "user" },
      schema: { tags: ["providers"], operationId: "setIdDocument", summary: "Attaches an uploaded identity document to the application", body: setIdDocumentBodySchema, response: { 200: objectPathResponseSchema, ...errors } },
    },
    async (request) => completeUpload(ctx, storage, requireUser(request).id, request.body.idDocumentURL, "id_document", "idDocumentURL"),
  );

  app.put(
    "/api/provider/set-profile-photo",
    {
      config: { auth: "user" },
      schema: { tags: ["providers"], operationId: "setProfilePhoto", summary: "Attaches an uploaded photo to the provider profile", body: setProfilePhotoBodySchema, response: { 200: objectPathResponseSchema, ...errors } },
    },
    async (request) =>
      completeUpload(ctx, storage, requireUser(request).id, request.body.profilePhotoURL, "profile_photo", "profilePhotoURL"),
  );

  for (const [url, operationId] of [
    ["/objects/:id", "getObject"],
    ["/api/objects/:id", "getObjectUnderApi"],
  ] as const) {
    app.get(
      url,
      {
        config: { auth: "public" },
        schema: { tags: ["providers"], operationId, summary: "Returns a stored file its viewer may see", params: z.object({ id: z.uuid({ error: "File not found" }) }) },
      },
      async (request, reply) => {
        const file = await readObject(ctx, storage, request.params.id, viewerOrNull(request.user));
        return reply
          .header("content-type", file.contentType)
          .header("content-disposition", `${file.disposition}; filename="${request.params.id}.${extension(file.contentType)}"`)
          .header("x-content-type-options", "nosniff")
          .header("cache-control", file.cache === "public" ? "public, max-age=300" : "private, no-store")
          .header("content-security-policy", "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'; sandbox")
          .send(file.body);
      },
    );
  }
};

function extension(contentType: string): string {
  return { "image/jpeg": "jpg", "image/png": "png", "image/webp": "webp", "application/pdf": "pdf" }[contentType] ?? "bin";
}

export default objectsRoutes;
