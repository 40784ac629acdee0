/** @deprecated Transitional: import promoteAdminEmails from repository.ts. Delete once app.ts does (issue 12). */
export { promoteAdminEmails } from "./repository.js";
