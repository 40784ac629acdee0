// The authorization matrix: for every route the server registers and every socket frame, what each
// kind of caller gets. authorization-matrix.test.ts reads the route table of the real app and fails
// when a route has no row here (or a row names a route that no longer exists), then plays every
// row for every actor and compares the status.
//
// Adding a route:
//   1. Add a row below: "METHOD /path" exactly as the route declares it (Fastify's :param form),
//      with the status each actor must get when the request is otherwise valid. Decide the row
//      from the rule, not from what the code happens to answer.
//   2. Add a scenario under the same key in authorization-matrix.test.ts (TypeScript refuses to
//      compile until you do): the task stage it needs, a valid request, and a check that the
//      answer leaks nothing when the route reads data.
//   3. Run: npx vitest run --project server test/security/authorization-matrix.test.ts
//
// The actors, in column order:
//   signedOut        no session
//   user             signed in, no relation to the task (not a provider)
//   poster           posted the task; for routes about one's own files it is the owner of the file
//   assignedProvider the verified provider assigned to the task (for claim: the verified provider
//                    about to claim it, since an open task has no provider yet)
//   otherProvider    another verified provider, with no relation to the task
//   admin            signed in with role admin on two factors, no relation to the task
//   oneFactorAdmin   signed in with role admin by the password alone, with no second factor yet
//                    (promoted by ADMIN_EMAILS or `npm run admin -- grant` before enrolling, or after
//                    a factor reset). Admin powers need two factors (src/server/policy.ts,
//                    docs/decisions/068-admin-powers-need-two-factors.md), so this column is not
//                    written per row but follows from that rule: every /api/admin/* route answers 403
//                    second_factor_required, and every other route, socket frame included, answers as
//                    it does to `user`, the stranger. A new route is covered without a new column.
//
// A write gets a fresh poster, provider and task for each actor, so one actor's success never
// changes another's answer; a read shares one task among the six. The user, the other provider and
// the admin are always new. 404 where the product hides existence on purpose: a file that is not
// yours does not exist.

export const ACTORS = ["signedOut", "user", "poster", "assignedProvider", "otherProvider", "admin", "oneFactorAdmin"] as const;
export type Actor = (typeof ACTORS)[number];

/** One status per actor written in the table, in ACTORS order; the one-factor admin's follows from the rule (expectedStatus). */
export type Statuses = readonly [signedOut: number, user: number, poster: number, assignedProvider: number, otherProvider: number, admin: number];

const everyone = (status: number): Statuses => [status, status, status, status, status, status];
const signedIn = (status: number): Statuses => [401, status, status, status, status, status];
const adminOnly = (status: number): Statuses => [401, 403, 403, 403, 403, status];
/** The two people of the task, and admins who read it for moderation. */
const partiesAndAdmin = (status: number): Statuses => [401, 403, status, status, 403, status];
const posterOnly = (status: number): Statuses => [401, 403, status, 403, 403, 403];
const assignedOnly = (status: number): Statuses => [401, 403, 403, status, 403, 403];
/** Approved providers only (payout onboarding). */
const providersOnly = (status: number): Statuses => [401, 403, 403, status, status, 403];

/**
 * Routes that also need a verified e-mail address (config.verifiedEmail): posting, applying,
 * paying, and adding a second factor (decision 067). Every actor above is verified; a signed-in
 * person who is not gets 403 on exactly these (docs/product.md, Accounts: recovery and
 * verification). The matrix test checks the app marks exactly these routes and plays each as an
 * unverified person.
 */
export const VERIFIED_EMAIL_ROUTES = [
  "POST /api/tasks",
  "POST /api/provider/apply",
  "POST /api/create-payment-intent",
  "POST /api/sandbox/payments/confirm",
  "POST /api/tasks/:id/tip",
  "POST /api/account/security/totp",
  "POST /api/account/security/totp/confirm",
  "POST /api/account/security/recovery-codes",
  "POST /api/account/security/passkeys/options",
  "POST /api/account/security/passkeys",
] as const;

export const HTTP_MATRIX = {
  // Platform and accounts: public entry points. "Who am I" answers everyone: a person, or null for
  // nobody (a visitor's page asks it too, and a 401 was an error in their console; issue 41).
  "GET /api/health": everyone(200),
  "GET /api/health/ready": everyone(200),
  // Only a scraper holding METRICS_TOKEN reads it, never a session; with no token set (as here) it does not exist.
  "GET /metrics": everyone(404),
  // For search engines: public addresses only (docs/decisions/028-head-tags-from-the-server.md).
  "GET /robots.txt": everyone(200),
  "GET /sitemap.xml": everyone(200),
  "GET /api/auth/config": everyone(200),
  // Registering answers alike for new and taken addresses and signs nobody in; the one-time links
  // (reset, verify, change of e-mail) work for whoever holds them (docs/decisions/020-account-recovery-and-verification.md).
  "POST /api/auth/register": everyone(202),
  "POST /api/auth/forgot-password": everyone(202),
  "POST /api/auth/reset-password/check": everyone(200),
  "POST /api/auth/reset-password": everyone(200),
  "POST /api/auth/verify-email": everyone(200),
  "POST /api/auth/resend-verification": signedIn(200),
  "POST /api/auth/change-email": signedIn(202),
  "POST /api/auth/login": everyone(200),
  "GET /api/auth/login": everyone(302),
  "POST /api/auth/logout": everyone(200),
  "GET /api/auth/user": everyone(200),
  "GET /api/login": everyone(302),
  "GET /api/logout": everyone(302),
  "GET /api/auth/oidc/start": everyone(302),
  "GET /api/auth/oidc/callback": everyone(302),
  // Second factors (docs/decisions/049-second-factors.md). The second step and a passkey sign-in are
  // authorized by the half-done sign-in's cookie, not a session: without one, nobody gets in (the
  // way in with one is played in src/server/features/auth/second-factors.test.ts and e2e/second-factors.e2e.ts).
  "POST /api/auth/second-factor": everyone(401),
  "POST /api/auth/passkey/options": everyone(200),
  "POST /api/auth/passkey": everyone(401),
  "POST /api/auth/step-up": signedIn(200),
  // Step-up with a passkey: only who has one (the poster here) gets options; an assertion needs a
  // browser's authenticator, so without one the answer is a 400 for everyone signed in.
  "POST /api/auth/step-up/passkey/options": [401, 400, 200, 400, 400, 400],
  "POST /api/auth/step-up/passkey": signedIn(400),
  // One's own factors. Every admin already has an app (they must), so adding one is a 409 for them,
  // and only they have one to remove or recovery codes to remake.
  "GET /api/account/security": signedIn(200),
  "GET /api/account/security/events": signedIn(200),
  "POST /api/account/security/totp": [401, 200, 200, 200, 200, 409],
  "POST /api/account/security/totp/confirm": [401, 200, 200, 200, 200, 409],
  "DELETE /api/account/security/totp": [401, 404, 404, 404, 404, 200],
  "POST /api/account/security/recovery-codes": [401, 409, 409, 409, 409, 200],
  "POST /api/account/security/passkeys/options": signedIn(200),
  "POST /api/account/security/passkeys": signedIn(400),
  // The poster's passkey: another's does not exist.
  "PATCH /api/account/security/passkeys/:id": [401, 404, 200, 404, 404, 404],
  "DELETE /api/account/security/passkeys/:id": [401, 404, 200, 404, 404, 404],
  "POST /api/admin/users/:id/second-factors/reset": adminOnly(200),
  "GET /api/admin/users/:id/security-events": adminOnly(200),

  // Contact form and office appointments: anyone writes, only admins read the inbox.
  "POST /api/contact": everyone(201),
  "POST /api/appointments": everyone(201),
  "GET /api/admin/contact-messages": adminOnly(200),
  "GET /api/admin/appointments": adminOnly(200),

  // Tasks. Reading is public (street addresses only for the parties and admins); each transition
  // belongs to one actor of the lifecycle table, and admins have no task actions (docs/product.md, Roles).
  "POST /api/tasks": signedIn(201),
  "GET /api/tasks/open": everyone(200),
  "GET /api/tasks/open/radius-counts": everyone(200),
  // The map's tile source (docs/decisions/031-job-board-map.md): as public as the board.
  "GET /api/map/config": everyone(200),
  "GET /api/tasks/my-tasks": signedIn(200),
  "GET /api/tasks/my-jobs": signedIn(200),
  "GET /api/tasks/declined": signedIn(200),
  "GET /api/tasks/:id": everyone(200),
  "PATCH /api/tasks/:id/claim": [401, 403, 403, 200, 200, 403],
  "PATCH /api/tasks/:id/start": assignedOnly(200),
  "PATCH /api/tasks/:id/complete": assignedOnly(200),
  "PATCH /api/tasks/:id/cancel": posterOnly(200),
  "PATCH /api/tasks/:id/reactivate": posterOnly(200),
  // Only during the payment window (claimed, unpaid): docs/decisions/024-declining-a-provider.md.
  "PATCH /api/tasks/:id/decline-provider": posterOnly(200),
  // The provider gives a claim back before starting: paid (refunded) or unpaid (decision 058).
  // The poster edits the task while it is open (decision 058).
  "PATCH /api/tasks/:id": posterOnly(200),
  "PATCH /api/tasks/:id/withdraw": assignedOnly(200),
  "PATCH /api/tasks/:id/release-claim": assignedOnly(200),
  // Task photos (docs/product.md#task-photos): the poster changes them, everyone sees them.
  "POST /api/tasks/:id/photos": posterOnly(200),
  "DELETE /api/tasks/:id/photos/:photoId": posterOnly(200),
  "GET /api/task-photos/:photoId/:size": everyone(200),
  // Offers (docs/product.md, Offers): the poster reads all, anyone signed in their own; any verified
  // provider but the poster offers (the assigned provider here is the one who offered); the poster accepts.
  "GET /api/tasks/:id/offers": signedIn(200),
  "PUT /api/tasks/:id/offer": providersOnly(200),
  "DELETE /api/tasks/:id/offer": providersOnly(200),
  "POST /api/tasks/:id/offers/:offerId/accept": posterOnly(200),
  // Requesting a provider (docs/product.md, Requesting a provider): only the requested provider
  // (the assigned provider here is the one requested) answers.
  "PATCH /api/tasks/:id/accept-request": assignedOnly(200),
  "PATCH /api/tasks/:id/decline-request": assignedOnly(200),
  // Public questions (docs/product.md, Public questions): everyone reads; a verified provider who is
  // not the poster asks; the poster answers; the poster or an admin hides and shows again.
  "GET /api/tasks/:id/questions": everyone(200),
  "POST /api/tasks/:id/questions": providersOnly(201),
  "POST /api/tasks/:id/questions/:questionId/answer": posterOnly(200),
  "POST /api/tasks/:id/questions/:questionId/hide": [401, 403, 200, 403, 403, 200],
  "POST /api/tasks/:id/questions/:questionId/unhide": [401, 403, 200, 403, 403, 200],
  "GET /api/geocode": everyone(200),

  // Provider applications and profiles: one's own only. Approved providers have applied already.
  "POST /api/provider/apply": [401, 201, 201, 409, 409, 201],
  "GET /api/provider/profile": [401, 200, 200, 200, 200, 200],
  "PATCH /api/provider/profile": [401, 404, 404, 200, 200, 404],

  // Uploads: the poster's upload link, upload and files. Someone else's link is spent or gone,
  // someone else's upload does not exist, and an ID document is shown to its owner and admins.
  "POST /api/objects/upload": signedIn(200),
  "PUT /api/objects/put/:token": [401, 410, 200, 410, 410, 410],
  "PUT /api/provider/set-id-document": [401, 404, 200, 404, 404, 404],
  "PUT /api/provider/set-profile-photo": [401, 404, 200, 404, 404, 404],
  "GET /objects/:id": [404, 404, 200, 404, 404, 200],
  "GET /api/objects/:id": [404, 404, 200, 404, 404, 200],

  // Job alerts: one's own list, verified providers only (docs/decisions/032-job-alerts.md).
  "GET /api/alerts": providersOnly(200),
  "PUT /api/alerts": providersOnly(200),

  // Time and turning up (docs/decisions/074-time-and-turning-up.md). A calendar is an approved
  // provider's own; anyone signed in reads a provider's free slots (the assigned provider's here),
  // their own upcoming tasks and their own feed address. The feed itself is read by whoever holds its
  // secret address (a calendar app, no session). A task's invitation is its people's and admins':
  // to anyone else the task's private side does not exist.
  "GET /api/calendar": providersOnly(200),
  "PUT /api/calendar": providersOnly(200),
  "GET /api/providers/:id/slots": signedIn(200),
  "GET /api/calendar/upcoming": signedIn(200),
  "GET /api/calendar/feed": signedIn(200),
  "POST /api/calendar/feed": signedIn(201),
  "DELETE /api/calendar/feed": signedIn(200),
  "GET /api/calendar/feeds/:token/errandly.ics": everyone(200),
  "GET /api/tasks/:id/calendar.ics": [401, 404, 200, 200, 404, 200],
  // Either person of a claimed task proposes a new time; the other one answers it (the assigned
  // provider here, the poster having proposed); the provider says they are on the way; the poster
  // reports a no-show 30 minutes after the start.
  "POST /api/tasks/:id/propose-time": [401, 403, 200, 200, 403, 403],
  "PATCH /api/tasks/:id/accept-time": assignedOnly(200),
  "PATCH /api/tasks/:id/decline-time": assignedOnly(200),
  "POST /api/tasks/:id/on-my-way": assignedOnly(200),
  "PATCH /api/tasks/:id/report-no-show": posterOnly(200),

  // Admin review of applications and the admin's lists.
  "GET /api/admin/applications/pending": adminOnly(200),
  "GET /api/admin/providers/active": adminOnly(200),
  "POST /api/admin/applications/:userId/approve": adminOnly(200),
  "POST /api/admin/applications/:userId/reject": adminOnly(200),
  "POST /api/admin/applications/:userId/review": adminOnly(200),
  "GET /api/admin/audit-log": adminOnly(200),
  "GET /api/admin/outbox": adminOnly(200),
  "GET /api/providers": everyone(200),

  // Chat: the poster and the assigned provider; admins read but do not write.
  "GET /api/messages/:taskId": partiesAndAdmin(200),
  "POST /api/messages": [401, 403, 201, 201, 403, 403],
  "PATCH /api/messages/:taskId/read": partiesAndAdmin(200),
  // The socket upgrade (101 Switching Protocols); its frames are in SOCKET_MATRIX.
  "GET /ws": signedIn(101),

  // Notifications: one's own, by construction (no id in the path).
  "GET /api/notifications": signedIn(200),
  "POST /api/notifications/read": signedIn(200),
  "GET /api/notifications/preferences": signedIn(200),
  "PUT /api/notifications/preferences": signedIn(200),
  // Web Push: one's own devices; the server's public key is for anyone signed in (decision 062).
  "GET /api/push/key": signedIn(200),
  "POST /api/push/subscriptions": signedIn(200),
  "DELETE /api/push/subscriptions": signedIn(200),

  // One's own account (no user id in the path); a session id that is not one's own is 404.
  "GET /api/account": signedIn(200),
  "PATCH /api/account/profile": signedIn(200),
  "PUT /api/account/photo": signedIn(200),
  "DELETE /api/account/photo": signedIn(200),
  "POST /api/account/password": signedIn(200),
  "GET /api/account/sessions": signedIn(200),
  "DELETE /api/account/sessions/:id": [401, 404, 200, 404, 404, 404],
  "POST /api/account/sessions/sign-out-others": signedIn(200),
  "GET /api/account/export": signedIn(200),
  "DELETE /api/account": signedIn(200),
  // Approved providers' photo changes wait for an admin.
  "GET /api/admin/photo-changes": adminOnly(200),
  "POST /api/admin/photo-changes/:userId/approve": adminOnly(200),
  "POST /api/admin/photo-changes/:userId/reject": adminOnly(200),

  // Reviews: the two parties of a completed task review each other; blind until both have.
  "POST /api/reviews": [401, 403, 201, 201, 403, 403],
  "GET /api/reviews/task/:taskId": partiesAndAdmin(200),
  "GET /api/reviews/user/:userId": everyone(200),

  // Public profiles: anyone reads anyone's (docs/product.md, "People you can see").
  "GET /api/users/:id/profile": everyone(200),

  // Felix spends geocoding and language-model budget: signed-in users only.
  "POST /api/ask-felix": signedIn(200),

  // Payments: the poster pays, approves, disputes and tips; the parties and admins see the escrow.
  "GET /api/payments/config": everyone(200),
  "POST /api/create-payment-intent": posterOnly(200),
  "POST /api/sandbox/payments/confirm": posterOnly(200),
  "GET /api/tasks/:id/escrow": partiesAndAdmin(200),
  "POST /api/tasks/:id/approve-release": posterOnly(200),
  // Either party of a paid task; an admin resolves instead (docs/decisions/057).
  "POST /api/tasks/:id/report-problem": [401, 403, 200, 200, 403, 403],
  "GET /api/tasks/:id/dispute": partiesAndAdmin(200),
  "POST /api/tasks/:id/dispute/messages": partiesAndAdmin(200),
  // Evidence: to anyone but the parties and admins a dispute photo does not exist (docs/security.md).
  "GET /api/dispute-photos/:photoId/:size": [401, 404, 200, 200, 404, 200],
  "POST /api/tasks/:id/tip": posterOnly(200),
  "GET /api/payments/earnings": signedIn(200),
  "POST /api/stripe/connect/account": providersOnly(201),
  "POST /api/stripe/connect/account-link": providersOnly(200),
  "POST /api/sandbox/payouts/complete-onboarding": providersOnly(200),
  "GET /api/admin/finance": adminOnly(200),
  "POST /api/admin/disputes/:taskId/resolve": adminOnly(200),
  // Authenticated by Stripe's signature, not a session. The matrix runs the sandbox gateway, which
  // has no webhook (404 for everyone); the signature rule is proved in payments/stripe.test.ts.
  "POST /api/stripe/webhook": everyone(404),
  // Receipts are the payer's and the admins'; to anyone else they do not exist
  // (docs/decisions/060-receipts-from-the-ledger.md). Statements are one's own: the poster and the
  // strangers had no earnings that year.
  "GET /api/receipts": signedIn(200),
  "GET /api/receipts/:id": [401, 404, 200, 404, 404, 200],
  "GET /api/receipts/:id/pdf": [401, 404, 200, 404, 404, 200],
  "GET /api/payments/payouts": signedIn(200),
  "GET /api/payments/earnings.csv": signedIn(200),
  "GET /api/payments/statements/:year": [401, 404, 404, 200, 404, 404],
  "GET /api/payments/statements/:year/pdf": [401, 404, 404, 200, 404, 404],
  "GET /api/admin/ledger": adminOnly(200),
  "GET /api/admin/ledger.csv": adminOnly(200),

  // Moderation (docs/product.md, Moderation): anyone signed in reports and blocks; only admins
  // read the queue and act. The people concerned (the reported, the blocked) are ordinary callers.
  "POST /api/reports": signedIn(201),
  "GET /api/blocks": signedIn(200),
  "PUT /api/blocks/:userId": signedIn(200),
  "DELETE /api/blocks/:userId": signedIn(200),
  "GET /api/admin/reports": adminOnly(200),
  "POST /api/admin/reports/:id/close": adminOnly(200),
  "POST /api/admin/tasks/:id/remove": adminOnly(200),
  "POST /api/admin/reviews/:id/hide": adminOnly(200),
  "POST /api/admin/reviews/:id/unhide": adminOnly(200),
  "POST /api/admin/users/:id/suspend": adminOnly(200),
  "POST /api/admin/users/:id/unsuspend": adminOnly(200),
  "POST /api/admin/providers/:userId/revoke": adminOnly(200),
  // Background checks (docs/decisions/064-background-checks.md): admins record or start one. With
  // the embedded manual adapter (as here) starting one is refused (409) and Checkr's webhook does
  // not exist (404); checkr-background-checks.test.ts plays both with the Checkr adapter.
  "GET /api/admin/background-checks/service": adminOnly(200),
  "POST /api/admin/providers/:userId/background-checks": adminOnly(201),
  "POST /api/admin/providers/:userId/background-checks/start": adminOnly(409),
  "POST /api/background-checks/checkr/webhook": everyone(404),
} as const satisfies Record<string, Statuses>;

export type RouteKey = keyof typeof HTTP_MATRIX;

/** The admin area: the routes config.auth "admin" guards, all under /api/admin/. */
export const isAdminArea = (key: RouteKey): boolean => key.split(" ")[1]?.startsWith("/api/admin/") === true;

/** What `actor` must get from the route: the row's status, or for the one-factor admin the rule's (see the top). */
export function expectedStatus(key: RouteKey, actor: Actor): number {
  const row: readonly number[] = HTTP_MATRIX[key];
  if (actor === "oneFactorAdmin") return isAdminArea(key) ? 403 : (row[ACTORS.indexOf("user")] as number);
  return row[ACTORS.indexOf(actor)] as number;
}

/**
 * Socket frames over /ws, on a claimed task's chat: the first frame the server answers with.
 * "refused" means the upgrade itself was refused (no session), so no frame can be sent.
 */
export type FrameOutcome = "refused" | "auth_success" | "error" | "message" | "notification" | "task_updated" | "nothing";
export type FrameOutcomes = readonly [
  signedOut: FrameOutcome,
  user: FrameOutcome,
  poster: FrameOutcome,
  assignedProvider: FrameOutcome,
  otherProvider: FrameOutcome,
  admin: FrameOutcome,
];

export const SOCKET_MATRIX = {
  /** {type:"auth", taskId}: joins the task's chat room. */
  auth: ["refused", "error", "auth_success", "auth_success", "error", "auth_success"],
  /** {type:"message"} after an auth frame: the parties' message is fanned out (to the sender too). */
  "message after auth": ["refused", "error", "message", "message", "error", "error"],
  /** {type:"message"} as the first frame: no room, so nothing is stored. */
  "message without auth": ["refused", "error", "error", "error", "error", "error"],
  /** {type:"subscribe_notifications"}: one's own unread count. */
  subscribe_notifications: ["refused", "notification", "notification", "notification", "notification", "notification"],
  /**
   * After subscribe_notifications, the poster cancels the task: the parties and admins get
   * {type:"task_updated"}; a stranger's socket gets nothing about it (only the public job-board frame).
   */
  "task_updated after a change": ["refused", "nothing", "task_updated", "task_updated", "nothing", "task_updated"],
  /**
   * {type:"watch_task"} (the tab shows the task's page), then a private change (a dispute's notice)
   * and the poster's cancel: everyone watching hears the cancel, which the page shows anyone; only
   * the parties and admins hear the dispute.
   */
  "task_updated while watching its page": ["refused", "task_updated", "task_updated", "task_updated", "task_updated", "task_updated"],
  /**
   * {type:"auth", taskId}, then the poster writes in the chat (POST /api/messages): the sockets in
   * the task's room hear it, the parties' and moderating admins'; a refused socket hears nothing.
   */
  "a party's message after auth": ["refused", "nothing", "message", "message", "nothing", "message"],
} as const satisfies Record<string, FrameOutcomes>;

export type SocketFrameKey = keyof typeof SOCKET_MATRIX;

/** What `actor`'s socket must get: the row's outcome, or for the one-factor admin the stranger's (see the top). */
export function expectedFrame(key: SocketFrameKey, actor: Actor): FrameOutcome {
  const row: readonly FrameOutcome[] = SOCKET_MATRIX[key];
  return row[ACTORS.indexOf(actor === "oneFactorAdmin" ? "user" : actor)] as FrameOutcome;
}
