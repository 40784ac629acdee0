// Chat rules the browser needs on a task page's first load, kept apart from chat.ts's zod schemas:
// importing them from there brought zod and every chat schema (about 23 KB) into the task page
// whenever the chat showed (issue 17, docs/decisions/029-lighter-first-load.md).

/** Notification text: the first 60 characters plus an ellipsis (docs/product.md, Chat and notifications). */
export function notificationPreview(content: string, max = 60): string {
  return content.length > max ? `${content.slice(0, max)}...` : content;
}
