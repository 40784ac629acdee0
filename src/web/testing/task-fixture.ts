import type { TaskDetail } from "@shared/tasks";

// A task as its poster (an insider) reads it, for component tests: a paid-for errand in Annapolis
// with Paula P. as poster, open and unclaimed unless the test says otherwise.

export type PrivateTaskDetail = Extract<TaskDetail, { visibility: "private" }>;

export const POSTER = { id: "00000000-0000-4000-8000-0000000000a1", displayName: "Paula P.", photoUrl: null, rating: null, reviewCount: 0, firstName: "Paula", lastName: "Poster" };
export const PROVIDER = {
  id: "00000000-0000-4000-8000-0000000000b2",
  displayName: "Sam P.",
  profilePhotoUrl: null,
  rating: 4.8,
  reviewCount: 12,
  completedTasks: 12,
  firstName: "Sam",
  lastName: "Provider",
};

export function privateTask(overrides: Partial<PrivateTaskDetail> = {}): PrivateTaskDetail {
  return {
    visibility: "private",
    photos: [],
    id: "00000000-0000-4000-8000-0000000000c3",
    title: "Carry boxes to the attic",
    description: "Six boxes, one flight of stairs.",
    category: "moving",
    urgency: "standard",
    budget: 30,
    urgentFee: 0,
    serviceFee: 3.3,
    totalAmount: 33.3,
    providerShare: 25.5,
    platformCommission: 4.5,
    scheduledDate: null,
    location: "12 Main St",
    city: "Annapolis",
    state: "MD",
    lat: 38.98,
    lon: -76.52,
    startCity: null,
    startState: null,
    endCity: null,
    endState: null,
    startLocation: null,
    endLocation: null,
    startLat: null,
    startLon: null,
    endLat: null,
    endLon: null,
    settlement: null,
    stops: null,
    stopCount: 0,
    isRoute: false,
    approxLat: 38.98,
    approxLon: -76.52,
    distanceMiles: null,
    status: "open",
    hiringMode: "first_to_claim",
    requestedProviderId: null,
    requestedProviderName: null,
    requestExpiresAt: null,
    requestFallback: null,
    requestOutcome: null,
    createdAt: "2026-01-01T00:00:00.000Z",
    userId: POSTER.id,
    providerId: null,
    paymentDeadline: null,
    paymentCapturedAt: null,
    editedAt: null,
    poster: POSTER,
    provider: null,
    ...overrides,
  };
}
