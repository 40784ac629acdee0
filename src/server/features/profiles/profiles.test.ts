import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { PROFILE_REVIEWS_LIMIT, type UserProfile } from "../../../shared/profiles.js";
import { providerProfiles } from "../../db/schema/providers.js";
import { reviews } from "../../db/schema/reviews.js";
import { users } from "../../db/schema/users.js";
import { call, createUser, useTestApp, type TestUser } from "../../../../test/create-test-app.js";
import { createApplicant, taskAt } from "../../../../test/fixtures/factory.js";

// GET /api/users/{id}/profile (docs/product.md, "People you can see"): what it shows, and what it
// must never carry whatever the person's data (e-mail, phone, street, ZIP, full last name).

const t = await useTestApp();
const DAY = 86_400_000;

const profileOf = (id: string, viewer: TestUser | null = null) => call(t, viewer, { url: `/api/users/${id}/profile` });
const review = (user: TestUser, body: Record<string, unknown>) => call(t, user, { method: "POST", url: "/api/reviews", payload: body });

/** A last name that appears nowhere else, so finding it anywhere in an answer is a leak. */
const uniqueLastName = (base: string) => `${base}${randomUUID().slice(0, 6).replace(/[^a-f]/g, "x")}`;

describe("GET /api/users/:id/profile", () => {
  it("shows a verified provider's record: counts, rating and reviews from revealed reviews only", async () => {
    const mariaLast = uniqueLastName("Garciaquist");
    const patLast = uniqueLastName("Quennell");
    const maria = await createUser(t, { verifiedProvider: true, firstName: "Maria", lastName: mariaLast });
    const pat = await createUser(t, { firstName: "Pat", lastName: patLast });
    const olu = await createUser(t, { verifiedProvider: true, firstName: "Olu", lastName: uniqueLastName("Adeyemi") });
    await t.database.db
      .update(providerProfiles)
      .set({ serviceTypes: ["errands", "pet"], bio: "Dog walker and errand runner.", profilePhotoPath: "/objects/00000000-0000-4000-8000-0000000000aa" })
      .where(eq(providerProfiles.userId, maria.id));

    // 1. Maria works for Pat; both review: revealed (5 stars from the customer).
    const first = await taskAt(t, "completed", { poster: pat, provider: maria });
    expect((await review(pat, { taskId: first.task.id, reviewedId: maria.id, rating: 5, comment: "Quick and careful" })).statusCode).toBe(201);
    t.clock.advance(60_000);
    expect((await review(maria, { taskId: first.task.id, reviewedId: pat.id, rating: 4 })).statusCode).toBe(201);
    // 2. Maria works for Pat again; only Pat reviews: still blind, so it counts nowhere.
    const second = await taskAt(t, "completed", { poster: pat, provider: maria });
    t.clock.advance(60_000);
    expect((await review(pat, { taskId: second.task.id, reviewedId: maria.id, rating: 1, comment: "Hidden verdict" })).statusCode).toBe(201);
    // 3. Maria posts a task Olu does; both review: revealed (3 stars from a provider).
    const third = await taskAt(t, "completed", { poster: maria, provider: olu });
    t.clock.advance(60_000);
    expect((await review(olu, { taskId: third.task.id, reviewedId: maria.id, rating: 3, comment: "Clear instructions" })).statusCode).toBe(201);
    expect((await review(maria, { taskId: third.task.id, reviewedId: olu.id, rating: 5 })).statusCode).toBe(201);
    // A task Maria posted that is still open counts as nothing.
    await taskAt(t, "open", { poster: maria });

    const res = await profileOf(maria.id);
    expect(res.statusCode, res.body).toBe(200);
    const profile = res.json<UserProfile>();
    expect(profile).toEqual({
      id: maria.id,
      displayName: `Maria ${mariaLast.charAt(0)}.`,
      photoUrl: "/objects/00000000-0000-4000-8000-0000000000aa",
      city: "Annapolis",
      state: "MD",
      memberSince: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      verifiedProvider: true,
      provider: { serviceTypes: ["errands", "pet"], bio: "Dog walker and errand runner." },
      // The approved-provider fixture's clear check (docs/decisions/064-background-checks.md).
      backgroundCheckedAt: "2026-01-15T00:00:00.000Z",
      completedAsProvider: 2,
      completedAsPoster: 1,
      claims: { withdrawn: 0, claimed: 2, noShows: 0, lateStarts: 0, bookedStarts: 0 },
      rating: { average: 4, count: 2 },
      reviews: [
        {
          id: expect.any(String),
          rating: 3,
          comment: "Clear instructions",
          reviewerId: olu.id,
          reviewerDisplayName: expect.stringMatching(/^Olu [A-Z]\.$/),
          date: expect.any(String),
          givenAs: "provider",
        },
        {
          id: expect.any(String),
          rating: 5,
          comment: "Quick and careful",
          reviewerId: pat.id,
          reviewerDisplayName: `Pat ${patLast.charAt(0)}.`,
          date: expect.any(String),
          givenAs: "poster",
        },
      ],
    });

    // What it must not contain, searched in the raw answer: the hidden review, the e-mail, the
    // phone, street and ZIP of the application, and the full last names of Maria and her reviewer.
    for (const secret of ["Hidden verdict", maria.email, pat.email, "4105550100", "1 Test St", "21401", mariaLast, patLast]) {
      expect(res.body, secret).not.toContain(secret);
    }
  });

  it("is the same for everyone who asks, signed in or not", async () => {
    const person = await createUser(t, { verifiedProvider: true });
    const stranger = await createUser(t);
    const anonymous = await profileOf(person.id);
    const signedIn = await profileOf(person.id, stranger);
    const self = await profileOf(person.id, person);
    expect(signedIn.body).toBe(anonymous.body);
    expect(self.body).toBe(anonymous.body);
  });

  it("shows a customer without a place or provider details, with their own photo", async () => {
    const lastName = uniqueLastName("Whitcombe");
    const customer = await createUser(t, { firstName: "Ana", lastName });
    await t.database.db.update(users).set({ profileImageUrl: "/objects/00000000-0000-4000-8000-0000000000bb" }).where(eq(users.id, customer.id));
    const res = await profileOf(customer.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      displayName: `Ana ${lastName.charAt(0)}.`,
      photoUrl: "/objects/00000000-0000-4000-8000-0000000000bb",
      city: null,
      state: null,
      verifiedProvider: false,
      provider: null,
      completedAsProvider: 0,
      completedAsPoster: 0,
      claims: { withdrawn: 0, claimed: 0, noShows: 0, lateStarts: 0, bookedStarts: 0 },
      rating: { average: null, count: 0 },
      reviews: [],
    });
    expect(res.body).not.toContain(lastName);
    expect(res.body).not.toContain(customer.email);
  });

  it("keeps an applicant's unapproved bio, place and photo private", async () => {
    const applicant = await createApplicant(t, {
      profile: {
        address: "9 Secret Lane",
        city: "Crofton",
        zipCode: "21114",
        serviceTypes: ["delivery"],
        bio: "Not approved yet",
        profilePhotoPath: "/objects/00000000-0000-4000-8000-0000000000cc",
      },
    });
    const res = await profileOf(applicant.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ verifiedProvider: false, provider: null, city: null, state: null, photoUrl: null });
    for (const secret of ["Not approved yet", "Crofton", "9 Secret Lane", "21114", "4105550199", "0000000000cc"]) expect(res.body).not.toContain(secret);
  });

  it(`lists the ${PROFILE_REVIEWS_LIMIT} newest revealed reviews and counts them all`, async () => {
    const { task, poster, provider } = await taskAt(t, "completed");
    // The provider reviewed the task, so every review of them on it is revealed: stored so here.
    expect((await review(provider, { taskId: task.id, reviewedId: poster.id, rating: 5 })).statusCode).toBe(201);
    const start = t.clock.now().getTime();
    const reviewers = await Promise.all(Array.from({ length: PROFILE_REVIEWS_LIMIT + 5 }, () => createUser(t)));
    await t.database.db.insert(reviews).values(
      reviewers.map((reviewer, i) => ({
        taskId: task.id,
        reviewerId: reviewer.id,
        reviewedId: provider.id,
        rating: (i % 5) + 1,
        comment: `Review number ${i}`,
        createdAt: new Date(start + i * 1000),
        revealedAt: new Date(start + i * 1000),
      })),
    );
    const profile = (await profileOf(provider.id)).json<UserProfile>();
    expect(profile.rating.count).toBe(PROFILE_REVIEWS_LIMIT + 5);
    expect(profile.reviews).toHaveLength(PROFILE_REVIEWS_LIMIT);
    expect(profile.reviews[0]?.comment).toBe(`Review number ${PROFILE_REVIEWS_LIMIT + 4}`);
    expect(profile.reviews.at(-1)?.comment).toBe("Review number 5");
    // Ratings 1 to 5, five of each: the average is over all of them, not only the listed ones.
    expect(profile.rating.average).toBe(3);
  });

  it("reveals a one-sided review after the blind window", async () => {
    const { task, poster, provider } = await taskAt(t, "completed");
    expect((await review(poster, { taskId: task.id, reviewedId: provider.id, rating: 2, comment: "Late" })).statusCode).toBe(201);
    expect((await profileOf(provider.id)).json<UserProfile>().rating).toEqual({ average: null, count: 0 });
    t.clock.advance(14 * DAY + 1000);
    // The reveal job makes it visible (docs/product.md#reviews).
    await t.app.ctx.scheduler.runAll();
    const profile = (await profileOf(provider.id)).json<UserProfile>();
    expect(profile.rating).toEqual({ average: 2, count: 1 });
    expect(profile.reviews.map((r) => r.comment)).toEqual(["Late"]);
  });

  it("answers 404 for an unknown person and 400 for an id that is not one", async () => {
    const missing = await profileOf(randomUUID());
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: "This profile does not exist" });
    const bad = await profileOf("not-a-uuid");
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ message: string }>().message).toMatch(/id/);
  });
});
