// Its own module, free of the task schemas, so the landing page can read it without putting zod on
// every visitor's first load (the landing JS budget in e2e/budgets.e2e.ts).

/** `?post=task` on a page that hosts the wizard opens it again (the return from sign-in; docs/product.md#post-a-task-draft). */
export const POST_TASK_RETURN_PARAM = "post";
