import { createHash } from "node:crypto";
import { serializerCompiler } from "fastify-type-provider-zod";
import { uuidParamSchema } from "../../../shared/common.js";
import type { PageDataRequest } from "../../../shared/page-data.js";
import { openTasksQuerySchema, taskDetailSchema } from "../../../shared/tasks.js";
import type { AppContext } from "../../context.js";
import { HttpError } from "../../http-errors.js";
import type { PageDataAnswer } from "../../plugins/spa.js";
import type { BoardAnswer } from "./board-cache.js";
import type { OpenTasksInput } from "./repository.js";
import { getTaskDetail } from "./task-views.js";

// What the server renders the job board's first page and a task page from
// (docs/decisions/036-server-rendered-data-pages.md): the API's own answers, as a signed-out visitor
// gets them, so the HTML is the same for everyone and holds nothing an insider alone may see (no
// street address, no full name; docs/product.md, "People you can see").

/** The task route's own response serializer: a field the public view does not name cannot reach the HTML. */
const serializeTask = serializerCompiler({ schema: taskDetailSchema, method: "GET", url: "/api/tasks/:id" });

/**
 * The answer a page asks for, or null when the API would have answered 4xx (an unknown task, a ZIP
 * code the board does not know): the page then loads as before and shows what the browser is told.
 */
export async function pageAnswer(ctx: AppContext, boardAnswer: (query: OpenTasksInput) => Promise<BoardAnswer>, request: PageDataRequest): Promise<PageDataAnswer | null> {
  try {
    if (request.kind === "board") {
      const query = openTasksQuerySchema.safeParse(Object.fromEntries(new URLSearchParams(request.query)));
      if (!query.success) return null;
      const { body, etag } = await boardAnswer(query.data);
      return { json: body, etag };
    }
    if (!uuidParamSchema.safeParse({ id: request.id }).success) return null;
    const json = serializeTask(await getTaskDetail(ctx, request.id, null));
    return { json, etag: createHash("sha1").update(json).digest("base64url") };
  } catch (error) {
    if (error instanceof HttpError && error.statusCode < 500) return null;
    throw error;
  }
}
