import { brief, type Check } from "../report.js";
import type { Answer } from "../http.js";
import { canariesIn, must, type Cast, type Person, type World } from "../world.js";

// Item 3: an admin whose session was proven by the password alone (an ADMIN_EMAILS address verified
// by its link, no factor yet) tries every admin power outside the admin area, over REST and on the
// live socket; the demo admin with its authenticator app tries the same as the reference, so a
// refusal is known to be the rule and not a broken request.

interface Power {
  name: string;
  method: "GET" | "POST" | "PATCH";
  path: string;
  body?: unknown;
}

function powers(cast: Cast): Power[] {
  const { disputed, released, offers, receipt, disputePhoto } = cast.ids;
  return [
    { name: "read another's chat", method: "GET", path: `/api/messages/${disputed}` },
    { name: "read a task's street address", method: "GET", path: `/api/tasks/${disputed}` },
    { name: "read the escrow", method: "GET", path: `/api/tasks/${disputed}/escrow` },
    { name: "read the dispute", method: "GET", path: `/api/tasks/${disputed}/dispute` },
    { name: "read a receipt", method: "GET", path: `/api/receipts/${receipt}` },
    { name: "download a receipt's PDF", method: "GET", path: `/api/receipts/${receipt}/pdf` },
    { name: "see a dispute photo", method: "GET", path: `/api/dispute-photos/${disputePhoto}/small` },
    { name: "download an ID document", method: "GET", path: cast.victim.idDocument },
    { name: "read hidden questions", method: "GET", path: `/api/tasks/${disputed}/questions` },
    { name: "read a blind review", method: "GET", path: `/api/reviews/task/${released}` },
    { name: "read a poster's offers", method: "GET", path: `/api/tasks/${offers}/offers` },
    { name: "mark another's chat read", method: "PATCH", path: `/api/messages/${disputed}/read`, body: {} },
  ];
}

/** Whether `answer` gave the caller something of the victim's: a 2xx on a private file, or a canary in the text. */
function gotSomething(answer: Answer, cast: Cast, power: Power): string | null {
  const found = canariesIn(answer.text, cast.canaries);
  if (found.length > 0) return `shown ${found.join(", ")}`;
  const file = /\/pdf$|dispute-photos|\/objects\//.test(power.path);
  if (file && answer.status === 200) return `served the file (${answer.headers["content-type"] ?? "?"})`;
  if (/\/escrow$|\/receipts\//.test(power.path) && answer.status === 200) return "answered 200";
  if (power.method !== "GET" && answer.status < 300) return `the write answered ${answer.status}`;
  return null;
}

async function call(person: Person, power: Power): Promise<Answer> {
  return person.browser.request(power.method, power.path, power.body === undefined ? {} : { json: power.body });
}

export async function adminTwoFactorsCheck(check: Check, world: World, cast: Cast, chiefEmail: string): Promise<void> {
  const me = must(await cast.admin1.browser.get("/api/auth/user"), 200, "admin1 who am I").json<{ role: string; isAdmin: boolean; adminNeedsSecondFactor: boolean }>();
  check.expect("the one-factor admin is told to add a factor, not given admin powers", me.role === "admin" && !me.isAdmin && me.adminNeedsSecondFactor, JSON.stringify(me));

  for (const power of powers(cast)) {
    const one = await call(cast.admin1, power);
    const two = power.method === "GET" ? await call(cast.admin2, power) : null;
    const leaked = gotSomething(one, cast, power);
    const reference = two ? gotSomething(two, cast, power) : null;
    check.expect(
      `one-factor admin: ${power.name}`,
      leaked === null && one.status < 500,
      `${leaked ?? `${one.status}, nothing of the victim's`}; two-factor admin: ${two ? (reference ?? `${two.status}, nothing of the victim's`) : "not tried"}`,
    );
  }

  const disputeWrite = await cast.admin1.browser.post(`/api/tasks/${cast.ids.disputed}/dispute/messages`, { body: "A note from a one-factor admin" });
  check.expect("one-factor admin: write into a dispute", disputeWrite.status >= 400 && disputeWrite.status < 500, brief(disputeWrite.status, disputeWrite.text));
  for (const [name, path] of [
    ["read the outbox", "/api/admin/outbox"],
    ["read the finance page", "/api/admin/finance"],
    ["read a person's security log", `/api/admin/users/${cast.victim.id}/security-events`],
    ["export the ledger", "/api/admin/ledger.csv"],
  ] as const) {
    const answer = await cast.admin1.browser.get(path);
    check.expect(`one-factor admin: ${name} in the admin area`, answer.status === 403 && /second factor/i.test(answer.text), brief(answer.status, answer.text));
  }
  const resolve = await cast.admin1.browser.post(`/api/admin/disputes/${cast.ids.disputed}/resolve`, { refund: 150, reason: "one-factor admin tries" });
  check.expect("one-factor admin: resolve a dispute", resolve.status === 403, brief(resolve.status, resolve.text));

  // The live socket: a chat the victim writes in, and a task that changes, seen by whom.
  const live = await world.postTask(cast.victim, { title: "Carry a box upstairs" });
  await world.move(cast.devon, live, "claim");
  const oneSocket = await cast.admin1.browser.socket();
  const twoSocket = await cast.admin2.browser.socket();
  const mark = { one: oneSocket.frames.length, two: twoSocket.frames.length };
  oneSocket.send({ type: "auth", taskId: live });
  twoSocket.send({ type: "auth", taskId: live });
  const oneAuth = await oneSocket.next((f) => f.type === "auth_success" || f.type === "error", 3000, mark.one);
  const twoAuth = await twoSocket.next((f) => f.type === "auth_success" || f.type === "error", 3000, mark.two);
  check.expect("one-factor admin: join another's chat room on the socket", oneAuth?.type === "error", `one-factor: ${JSON.stringify(oneAuth)}; two-factor: ${JSON.stringify(twoAuth)}`);
  const sent = { one: oneSocket.frames.length, two: twoSocket.frames.length };
  must(await cast.victim.browser.post("/api/messages", { taskId: live, content: "socket-canary-dunlin, the box is heavy" }), 201, "the victim's chat");
  const twoHeard = await twoSocket.next((f) => JSON.stringify(f).includes("socket-canary-dunlin"), 3000, sent.two);
  const oneHeard = await oneSocket.next((f) => JSON.stringify(f).includes("socket-canary-dunlin"), 1000, sent.one);
  check.expect(
    "one-factor admin: hear another's chat on the socket",
    oneHeard === null,
    `one-factor ${oneHeard ? "received it" : "received nothing"}; two-factor ${twoHeard ? "received it" : "received nothing"}`,
  );
  const moved = { one: oneSocket.frames.length, two: twoSocket.frames.length };
  await world.move(cast.devon, live, "release-claim");
  const twoUpdate = await twoSocket.next((f) => f.type === "task_updated" && f.taskId === live, 3000, moved.two);
  const oneUpdate = await oneSocket.next((f) => f.type === "task_updated" && f.taskId === live, 1000, moved.one);
  check.expect(
    "one-factor admin: follow another's task on the socket",
    oneUpdate === null,
    `one-factor ${oneUpdate ? "received its update" : "received nothing"}; two-factor ${twoUpdate ? "received its update" : "received nothing"}`,
  );
  oneSocket.close();
  twoSocket.close();

  // Not a hole the issue names: a one-factor admin session may add the account's first factor
  // (decision 049), and the session then counts as two factors. So an admin who has no factor yet
  // is still only as safe as their password; recorded as a note.
  const chief = await world.register("chief", "Chet", "Chief", { email: chiefEmail });
  const beforeEnrol = await chief.browser.get("/api/admin/outbox");
  await world.enrolTotp(chief);
  const afterEnrol = await chief.browser.get("/api/admin/outbox");
  check.note(
    "a factor-less admin's password session enrols an app and becomes two-factor",
    `outbox before ${beforeEnrol.status}, after adding an app in the same session ${afterEnrol.status}`,
  );
}
