import { zodResolver } from "@hookform/resolvers/zod";
import { answerQuestionBodySchema, askQuestionBodySchema } from "@shared/questions";

// The question forms' shared schemas, loaded at a form's first check (lazyResolver), so zod stays
// out of the task page's first load (docs/decisions/041-forms-loaded-on-first-use.md).

export const askResolver = zodResolver(askQuestionBodySchema);
export const answerResolver = zodResolver(answerQuestionBodySchema);
