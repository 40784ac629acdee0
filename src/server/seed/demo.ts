import { count, inArray } from "drizzle-orm";
import type { Category, Urgency } from "../../shared/constants.js";
import { lineItemsOf, priceTask } from "../../shared/money.js";
import type { Db } from "../db/client.js";
import { backgroundChecks } from "../db/schema/background-checks.js";
import { providerProfiles } from "../db/schema/providers.js";
import { totpFactors } from "../db/schema/security.js";
import { tasks } from "../db/schema/tasks.js";
import { users } from "../db/schema/users.js";
import { hashPassword, verifyPassword } from "../features/auth/passwords.js";
import { sealTotpSecret } from "../features/auth/totp.js";
import type { SecretBox } from "../secrets/secret-box.js";
import { approx } from "../features/tasks/positions.js";

// Demo data for an empty database (SEED_DEMO; by default on a loopback development run only,
// config/demo-data.ts): three accounts and a dozen open tasks across Maryland, so a fresh
// `npm start` has something to look at.

// It meets the password policy like any other (docs/product.md "Passwords"; password-policy.test.ts checks).
export const DEMO_PASSWORD = "demo-harbor-lantern";
/**
 * Admins always sign in with a second factor (docs/decisions/049-second-factors.md): the demo admin's
 * authenticator app, printed by `npm start` so a person can add it to theirs; public like the password.
 */
export const DEMO_ADMIN_TOTP_SECRET = "KRUGKIDROVUWG2ZAMJZG653OEBTG66BA";

interface Place {
  town: string;
  street: string;
  lat: number;
  lon: number;
}

const P = (town: string, street: string, lat: number, lon: number): Place => ({ town, street, lat, lon });
const ANNAPOLIS = P("Annapolis", "58 West St", 38.9784, -76.4922);
const BALTIMORE = P("Baltimore", "401 Light St", 39.2847, -76.6133);
const COLUMBIA = P("Columbia", "10275 Little Patuxent Pkwy", 39.2156, -76.8617);
const FREDERICK = P("Frederick", "12 E Patrick St", 39.4143, -77.4105);
const ROCKVILLE = P("Rockville", "111 Maryland Ave", 39.084, -77.1528);
const SILVER_SPRING = P("Silver Spring", "8401 Colesville Rd", 38.9907, -77.0261);
const BOWIE = P("Bowie", "15200 Annapolis Rd", 38.9429, -76.7302);
const TOWSON = P("Towson", "1 W Pennsylvania Ave", 39.4015, -76.6019);
const ELLICOTT = P("Ellicott City", "8267 Main St", 39.2673, -76.7983);
const GAITHERSBURG = P("Gaithersburg", "31 S Summit Ave", 39.1434, -77.2014);
const LAUREL = P("Laurel", "350 Main St", 39.0993, -76.8483);
const GLEN_BURNIE = P("Glen Burnie", "7409 Baltimore Annapolis Blvd", 39.1626, -76.6247);

interface DemoTask {
  title: string;
  description: string;
  category: Category;
  budget: number;
  urgency: Urgency;
  at?: Place;
  route?: { start: Place; stops: Place[]; end: Place };
  hoursAgo: number;
}

const DEMO_TASKS: DemoTask[] = [
  { title: "Pick up dry cleaning and drop at home", description: "Two suits and a dress at the cleaner on West St, ticket will be shared after claim.", category: "errands", budget: 25, urgency: "standard", at: ANNAPOLIS, hoursAgo: 1 },
  { title: "Deliver a birthday cake across town", description: "Cake is boxed and ready at the bakery; needs to stay flat and cool.", category: "delivery", budget: 40, urgency: "urgent", route: { start: BALTIMORE, stops: [], end: TOWSON }, hoursAgo: 2 },
  { title: "Deep clean a two-bedroom apartment", description: "Kitchen, two bathrooms, floors and windows. Supplies provided.", category: "cleaning", budget: 160, urgency: "standard", at: COLUMBIA, hoursAgo: 3 },
  { title: "Help move a couch and boxes", description: "Couch down one flight of stairs into a pickup truck, plus about ten boxes.", category: "moving", budget: 120, urgency: "standard", route: { start: FREDERICK, stops: [], end: GAITHERSBURG }, hoursAgo: 5 },
  { title: "Weekly grocery run", description: "List of about 25 items from the grocery store; receipts required.", category: "shopping", budget: 35, urgency: "standard", at: ROCKVILLE, hoursAgo: 6 },
  { title: "Walk a friendly golden retriever", description: "45-minute walk around the neighborhood, leash and bags at the door.", category: "pet", budget: 20, urgency: "standard", at: SILVER_SPRING, hoursAgo: 8 },
  { title: "Print and deliver presentation binders", description: "Print 12 binders at the copy shop and bring them to our office before 9 AM.", category: "business", budget: 75, urgency: "urgent", route: { start: BOWIE, stops: [LAUREL], end: ANNAPOLIS }, hoursAgo: 10 },
  { title: "Organize a garage", description: "Sort tools and storage bins, haul recycling to the curb.", category: "cleaning", budget: 90, urgency: "standard", at: TOWSON, hoursAgo: 20 },
  { title: "Return packages at three stores", description: "Three return packages, labels attached; get receipts for each.", category: "errands", budget: 45, urgency: "standard", route: { start: ELLICOTT, stops: [COLUMBIA, LAUREL], end: ELLICOTT }, hoursAgo: 26 },
  { title: "Assemble an office desk", description: "Flat-pack standing desk, tools on site, about two hours of work.", category: "other", budget: 60, urgency: "standard", at: GAITHERSBURG, hoursAgo: 30 },
  { title: "Pick up pet medication", description: "Prescription ready at the vet clinic, prepaid; deliver to home.", category: "pet", budget: 25, urgency: "urgent", route: { start: GLEN_BURNIE, stops: [], end: BALTIMORE }, hoursAgo: 40 },
  { title: "Farmers market shopping", description: "Seasonal produce from the Saturday market, list provided, budget for goods separate.", category: "shopping", budget: 30, urgency: "standard", at: ANNAPOLIS, hoursAgo: 50 },
];

const DEMO_EMAILS = { poster: "poster@errandly.test", provider: "provider@errandly.test", admin: "admin@errandly.test" };

/**
 * Seeds only an empty database; returns whether it seeded. `password` is the demo accounts'; a
 * bench that wants the demo tasks behind a production-mode server gives one nobody knows, as such a
 * server refuses the published one (refusePublishedDemoLogins).
 */
export async function seedDemoData(db: Db, secrets: SecretBox, now: Date, password = DEMO_PASSWORD): Promise<boolean> {
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return false;

  const passwordHash = await hashPassword(password);
  const [poster, provider, admin] = await db
    .insert(users)
    .values([
      { email: DEMO_EMAILS.poster, passwordHash, emailVerifiedAt: now, firstName: "Paula", lastName: "Poster", role: "user" },
      { email: DEMO_EMAILS.provider, passwordHash, emailVerifiedAt: now, firstName: "Devon", lastName: "Provider", role: "provider" },
      { email: DEMO_EMAILS.admin, passwordHash, emailVerifiedAt: now, firstName: "Ada", lastName: "Admin", role: "admin" },
    ])
    .returning();
  if (!poster || !provider || !admin) throw new Error("demo users were not created");
  await db.insert(totpFactors).values({ userId: admin.id, secret: sealTotpSecret(secrets, admin.id, DEMO_ADMIN_TOTP_SECRET), confirmedAt: now, createdAt: now });

  await db.insert(providerProfiles).values({
    userId: provider.id,
    verificationStatus: "approved",
    fullName: "Devon Provider",
    email: provider.email,
    phone: "(410) 555-0188",
    address: "200 Duke of Gloucester St",
    city: "Annapolis",
    state: "MD",
    zipCode: "21401",
    serviceTypes: ["errands", "delivery", "moving", "shopping"],
    availability: { monday: true, tuesday: true, wednesday: true, thursday: true, friday: true, saturday: false, sunday: false },
    bio: "Reliable local helper with a pickup truck. Ten years of moving and delivery experience around Anne Arundel County.",
    hourlyRateCents: 3500,
    reviewedAt: now,
  });
  // Approval needs a clear background check (docs/decisions/064-background-checks.md).
  await db.insert(backgroundChecks).values({
    userId: provider.id,
    adapter: "manual",
    checkedWhat: "County and state criminal records, MD, 7 years; national sex offender registry",
    result: "clear",
    recordedBy: admin.id,
    completedAt: now,
    createdAt: now,
  });

  await db.insert(tasks).values(
    DEMO_TASKS.map((t) => {
      const price = priceTask(t.budget * 100, t.urgency);
      const first = t.at ?? t.route?.start;
      const base = {
        userId: poster.id,
        title: t.title,
        description: t.description,
        category: t.category,
        urgency: t.urgency,
        ...lineItemsOf(price),
        approxLat: first ? approx(first.lat) : null,
        approxLon: first ? approx(first.lon) : null,
        createdAt: new Date(now.getTime() - t.hoursAgo * 3_600_000),
      };
      if (t.at) {
        return { ...base, location: t.at.street, city: t.at.town, state: "MD", lat: t.at.lat, lon: t.at.lon };
      }
      const route = t.route;
      if (!route) throw new Error(`demo task ${t.title} has no place`);
      return {
        ...base,
        startLocation: route.start.street,
        startCity: route.start.town,
        startState: "MD",
        startLat: route.start.lat,
        startLon: route.start.lon,
        endLocation: route.end.street,
        endCity: route.end.town,
        endState: "MD",
        endLat: route.end.lat,
        endLon: route.end.lon,
        stops:
          route.stops.length > 0
            ? route.stops.map((s) => ({ address: s.street, city: s.town, state: "MD", notes: null, lat: s.lat, lon: s.lon }))
            : null,
      };
    }),
  );
  return true;
}

/**
 * Why a start that may hold no demo data (`exposure`, from config/demo-data.ts) must stop: the
 * database still has demo accounts that sign in with the published password, as one seeded by an
 * earlier local `npm start` on the same DATA_DIR or database would. Null when it has none. Not
 * seeding is not enough there: whoever reaches the server would sign in as its demo admin.
 */
export async function refusePublishedDemoLogins(db: Db, exposure: string): Promise<string | null> {
  const rows = await db
    .select({ email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(inArray(users.email, Object.values(DEMO_EMAILS)));
  const published: string[] = [];
  for (const row of rows) {
    if (row.passwordHash && (await verifyPassword(DEMO_PASSWORD, row.passwordHash))) published.push(row.email);
  }
  if (published.length === 0) return null;
  return (
    `This database holds demo accounts that sign in with the published demo password (${published.sort().join(", ")}), ` +
    `and ${exposure}: anyone who reaches this server could sign in as them. Start on an empty database ` +
    "(a new DATA_DIR or DATABASE_URL), or start once on this machine alone (npm start: NODE_ENV development, " +
    "HOST 127.0.0.1) and change those accounts' passwords in Settings, or delete them (docs/deploy.md, \"Listening and demo data\")."
  );
}
