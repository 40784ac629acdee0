import { describe, expect, it } from "vitest";
import { createTaskBodySchema } from "@shared/tasks";
import {
  addressFromSuggestion,
  addressFromTyping,
  budgetState,
  buildCreateTaskBody,
  emptyPostTaskForm,
  felixContextOf,
  moveStop,
  scheduledDateIso,
  type PostTaskForm,
  type StopValue,
} from "./post-task-form";

const annapolis = { displayName: "Annapolis, MD", fullAddress: "Annapolis", city: "Annapolis", state: "MD", lat: 38.97, lon: -76.49 };
const stop = (address: string, key: string): StopValue => ({ address, city: "", state: "", lat: null, lon: null, key });

function routeForm(): PostTaskForm {
  return {
    ...emptyPostTaskForm(),
    title: "Deliver binders",
    description: "Twelve binders",
    category: "delivery",
    mode: "route",
    start: addressFromSuggestion(annapolis),
    stops: [stop("12 Main St", "a"), stop("  ", "b")],
    end: { address: "1 Bay Rd", city: "Bowie", state: "MD", lat: null, lon: null },
    budget: "100",
    urgency: "urgent",
  };
}

describe("budgetState", () => {
  it("is empty, below the minimum, invalid or valid with the spec's fees", () => {
    expect(budgetState("", "standard").kind).toBe("empty");
    expect(budgetState("19.99", "standard").kind).toBe("below_min");
    expect(budgetState("abc", "standard").kind).toBe("invalid");
    expect(budgetState("20.001", "standard")).toMatchObject({ kind: "invalid", message: "must have at most two decimals" });
    expect(budgetState("100000.01", "standard")).toMatchObject({ kind: "invalid", message: "Maximum budget is $100,000" });
    const urgent = budgetState("100", "urgent");
    // 15% urgent fee, then ceil(8% of 115.00) + 0.50 = 9.70, total 124.70.
    expect(urgent).toMatchObject({ kind: "valid", dollars: 100, price: { urgentFeeCents: 1500, serviceFeeCents: 970, totalCents: 12470 } });
    expect(budgetState("20", "standard")).toMatchObject({ kind: "valid", price: { serviceFeeCents: 210, totalCents: 2210 } });
  });
});

describe("scheduledDateIso", () => {
  it("is built only when both date and time are given", () => {
    expect(scheduledDateIso("2030-05-01", "")).toBeNull();
    expect(scheduledDateIso("", "10:30")).toBeNull();
    expect(scheduledDateIso("2030-05-01", "10:30")).toBe(new Date(2030, 4, 1, 10, 30).toISOString());
  });
});

describe("buildCreateTaskBody", () => {
  it("sends a route with its non-empty stops, positions of picked places, and passes the server schema", () => {
    const body = buildCreateTaskBody(routeForm(), 100);
    expect(body).toMatchObject({
      startLocation: "Annapolis",
      startCity: "Annapolis",
      startState: "MD",
      startLat: 38.97,
      endLocation: "1 Bay Rd",
      endLat: null,
      stops: [{ address: "12 Main St", city: null, state: null }],
      urgency: "urgent",
      scheduledDate: null,
    });
    expect(body).not.toHaveProperty("location");
    expect(createTaskBodySchema.safeParse(body).success).toBe(true);
  });

  it("sends null stops for a route without stops and only the single location otherwise", () => {
    expect(buildCreateTaskBody({ ...routeForm(), stops: [] }, 100).stops).toBeNull();
    const single = buildCreateTaskBody({ ...routeForm(), mode: "single", location: addressFromSuggestion(annapolis) }, 25);
    expect(single).toMatchObject({ location: "Annapolis", city: "Annapolis", state: "MD", lat: 38.97, budget: 25 });
    expect(single).not.toHaveProperty("startLocation");
  });

  it("leaves an unchosen category empty so the server names the field", () => {
    const result = createTaskBodySchema.safeParse(buildCreateTaskBody({ ...routeForm(), category: "" }, 100));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Category must be one of the listed categories");
  });
});

describe("address editing and stops", () => {
  it("drops a picked position once the address is typed over", () => {
    const typed = addressFromTyping(addressFromSuggestion(annapolis), "Annapolis Rd");
    expect(typed).toEqual({ address: "Annapolis Rd", city: "Annapolis", state: "MD", lat: null, lon: null });
  });

  it("moves stops up and down within bounds", () => {
    const stops = [stop("a", "1"), stop("b", "2"), stop("c", "3")];
    expect(moveStop(stops, 0, 1).map((s) => s.key)).toEqual(["2", "1", "3"]);
    expect(moveStop(stops, 2, -1).map((s) => s.key)).toEqual(["1", "3", "2"]);
    expect(moveStop(stops, 0, -1)).toBe(stops);
    expect(moveStop(stops, 2, 1)).toBe(stops);
  });
});

describe("felixContextOf", () => {
  it("gives Felix the route, stops, urgency and a valid offered budget", () => {
    expect(felixContextOf(routeForm())).toMatchObject({
      title: "Deliver binders",
      category: "delivery",
      startLocation: "Annapolis",
      endLocation: "1 Bay Rd",
      endCity: "Bowie",
      stops: [{ address: "12 Main St", city: null, state: null }],
      urgency: "urgent",
      offeredBudget: 100,
    });
    expect(felixContextOf({ ...routeForm(), budget: "5" }).offeredBudget).toBeNull();
    expect(felixContextOf({ ...emptyPostTaskForm(), location: addressFromSuggestion(annapolis) })).toMatchObject({
      location: "Annapolis",
      city: "Annapolis",
      stops: [],
      category: null,
    });
  });
});
