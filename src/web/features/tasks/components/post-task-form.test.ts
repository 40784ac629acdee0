import { describe, expect, it } from "vitest";
import { createTaskBodySchema, SCHEDULE_MESSAGES } from "@shared/tasks";
import { parsePostTaskDraft } from "./post-task-draft";
import {
  addressFromSuggestion,
  addressFromTyping,
  budgetState,
  buildCreateTaskBody,
  emptyPostTaskForm,
  felixContextOf,
  formFieldOfBodyPath,
  scheduledDateIso,
  scheduleIssue,
  stepOf,
  validatePostTaskForm,
  type AddressValue,
  type PostTaskForm,
  type RequestTime,
} from "./post-task-form";

const annapolis = { displayName: "Annapolis, MD", fullAddress: "Annapolis", city: "Annapolis", state: "MD", lat: 38.97, lon: -76.49 };
const stop = (address: string, state = ""): AddressValue => ({ address, city: "", state, lat: null, lon: null });

function routeForm(): PostTaskForm {
  return {
    ...emptyPostTaskForm(),
    title: "Deliver binders",
    description: "Twelve binders",
    category: "delivery",
    mode: "route",
    start: addressFromSuggestion(annapolis),
    stops: [stop("12 Main St"), stop("  ")],
    end: { address: "1 Bay Rd", city: "Bowie", state: "MD", lat: null, lon: null },
    budget: "100",
    urgency: "urgent",
  };
}

describe("budgetState", () => {
  it("is empty, below the minimum, invalid or valid with the product's fees", () => {
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
    const iso = scheduledDateIso("2030-05-01", "10:30");
    // Local wall time with the browser's offset, so the server reads the poster's own hours.
    expect(iso).toMatch(/^2030-05-01T10:30:00(?:Z|[+-]\d{2}:\d{2})$/);
    expect(new Date(iso ?? "").getTime()).toBe(new Date(2030, 4, 1, 10, 30).getTime());
  });
});

describe("scheduleIssue (the browser's clock decides today)", () => {
  const now = new Date(2030, 4, 10, 12, 0);
  it.each([
    ["", "", null],
    ["2030-05-11", "", { field: "time", message: SCHEDULE_MESSAGES.needsTime }],
    ["", "10:00", { field: "date", message: SCHEDULE_MESSAGES.needsDate }],
    ["2030-05-09", "10:00", { field: "date", message: SCHEDULE_MESSAGES.past }],
    ["2030-05-10", "11:00", { field: "time", message: SCHEDULE_MESSAGES.timePassed }],
    ["2030-05-10", "13:00", null],
    ["2030-05-11", "05:30", null],
    ["2030-05-11", "09:00", null],
    ["2030-05-11", "21:00", null],
    ["2030-05-11", "23:59", null],
  ])("date %s time %s gives %j", (date, time, issue) => {
    expect(scheduleIssue(date, time, now)).toEqual(issue);
  });

  it("makes a complete form invalid when its date is in the past", () => {
    expect(validatePostTaskForm({ ...routeForm(), date: "2030-05-01", time: "10:00" }, now)).toEqual({
      ok: false,
      issues: [{ field: "date", message: SCHEDULE_MESSAGES.past }],
    });
  });
});

describe("formFieldOfBodyPath", () => {
  it("maps the server's request paths onto the form's fields", () => {
    const form = routeForm();
    form.stops = [stop(" "), stop("2 Elm St")];
    expect(formFieldOfBodyPath(form, ["title"])).toBe("title");
    expect(formFieldOfBodyPath(form, ["scheduledDate"])).toBe("date");
    expect(formFieldOfBodyPath(form, ["startState"])).toBe("start.state");
    expect(formFieldOfBodyPath(form, ["stops", "0", "state"])).toBe("stops.1.state");
    expect(formFieldOfBodyPath(form, ["unknown"])).toBe("root");
  });
});

describe("parsePostTaskDraft", () => {
  it("reads a stored draft back and refuses what is not one", () => {
    const draft = { step: 2, form: routeForm() };
    expect(parsePostTaskDraft(JSON.stringify(draft))).toEqual(draft);
    expect(parsePostTaskDraft("not json")).toBeNull();
    expect(parsePostTaskDraft(null)).toBeNull();
    expect(parsePostTaskDraft(JSON.stringify({ step: 9, form: { title: 5, category: "weapons", stops: "x" } }))).toEqual({
      step: 1,
      form: { ...emptyPostTaskForm() },
    });
  });
});

describe("buildCreateTaskBody", () => {
  it("sends a route with its non-empty stops, positions of picked places, and passes the server schema", () => {
    const body = buildCreateTaskBody(routeForm());
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
    expect(buildCreateTaskBody({ ...routeForm(), stops: [] }).stops).toBeNull();
    const single = buildCreateTaskBody({ ...routeForm(), mode: "single", location: addressFromSuggestion(annapolis), budget: "25" });
    expect(single).toMatchObject({ location: "Annapolis", city: "Annapolis", state: "MD", lat: 38.97, budget: 25 });
    expect(single).not.toHaveProperty("startLocation");
  });

  it("leaves an unchosen category empty so the server names the field", () => {
    const result = createTaskBodySchema.safeParse(buildCreateTaskBody({ ...routeForm(), category: "" }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Category must be one of the listed categories");
  });
});

describe("address editing and stops", () => {
  it("drops a picked position once the address is typed over", () => {
    const typed = addressFromTyping(addressFromSuggestion(annapolis), "Annapolis Rd");
    expect(typed).toEqual({ address: "Annapolis Rd", city: "Annapolis", state: "MD", lat: null, lon: null });
  });

});

describe("validatePostTaskForm", () => {
  it("accepts a complete route and answers the body the server would parse", () => {
    const result = validatePostTaskForm(routeForm());
    expect(result).toMatchObject({ ok: true, body: { title: "Deliver binders", budget: 100, stops: [{ address: "12 Main St" }] } });
  });

  it("names each refusal of the server's schema by the field it was typed in", () => {
    const result = validatePostTaskForm({
      ...emptyPostTaskForm(),
      title: "Hi",
      description: "  ",
      mode: "route",
      start: stop("1 Bay Rd"),
      stops: [stop(" "), stop("2 Elm St", "Maryland")],
      budget: "10",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual(
      expect.arrayContaining([
        { field: "title", message: "Title must be at least 3 characters" },
        { field: "description", message: "Description is required" },
        { field: "category", message: "Category must be one of the listed categories" },
        { field: "budget", message: "Minimum budget is $20" },
        // The blank first stop is not sent: the second one is the server's stops[0].
        { field: "stops.1.state", message: "State must be two letters" },
      ]),
    );
  });

  it("asks for a budget, and for the location once the fields themselves are valid", () => {
    const issues = (form: PostTaskForm) => {
      const result = validatePostTaskForm(form);
      return result.ok ? [] : result.issues;
    };
    // The schema checks the location rule on a body whose fields passed (zod runs object refinements last).
    expect(issues({ ...routeForm(), mode: "single", budget: "" })).toEqual([{ field: "budget", message: "Enter a budget" }]);
    expect(issues({ ...routeForm(), mode: "single" })).toEqual([{ field: "location.address", message: "Location is required" }]);
    expect(issues({ ...routeForm(), end: stop("") })).toEqual([{ field: "end.address", message: "A route needs a start and an end location" }]);
  });

  it("knows which step holds a field", () => {
    expect(stepOf("category")).toBe(1);
    expect(stepOf("stops.1.state")).toBe(2);
    expect(stepOf("budget")).toBe(2);
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

describe("a request with one of the provider's free times", () => {
  const requested = (time: RequestTime | null): PostTaskForm => ({
    ...routeForm(),
    request: { providerId: "00000000-0000-4000-8000-000000000002", providerName: "Sam S.", windowHours: 24, fallback: "open", time },
    // Typed before a free time was chosen: the chosen time replaces them.
    date: "2026-12-01",
    time: "",
  });
  const slot = { startsAt: "2099-01-05T15:00:00.000Z", endsAt: "2099-01-05T16:00:00.000Z", instant: true };

  it("sends the chosen start as the request's time and no other date, which the server's schema takes", () => {
    const body = buildCreateTaskBody(requested(slot));
    expect(body.scheduledDate).toBeNull();
    expect(body.request).toEqual({ providerId: "00000000-0000-4000-8000-000000000002", windowHours: 24, fallback: "open", startsAt: slot.startsAt });
    expect(validatePostTaskForm(requested(slot), new Date("2098-12-01T00:00:00Z")).ok).toBe(true);
  });

  it("judges the date fields only while no free time is chosen", () => {
    const result = validatePostTaskForm(requested(null), new Date("2098-12-01T00:00:00Z"));
    expect(result.ok ? [] : result.issues).toContainEqual({ field: "time", message: SCHEDULE_MESSAGES.needsTime });
  });
});
