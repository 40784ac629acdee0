// How long the admin review of a provider application takes, as applicants are told everywhere in
// the web (one value, so the pages cannot drift apart as they did: "1-2 business days" in some).
export const APPLICATION_REVIEW_TIME = "24-48 hours";
