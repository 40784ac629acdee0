import { DEFAULT_REQUEST_WINDOW_HOURS } from "@shared/task-requests";
import type { TaskPrivate } from "@shared/tasks";
import type { AddressValue, PostTaskForm, RequestChoice } from "./post-task-form";

// The Post a Task wizard opened for one provider (docs/product.md, Requesting a provider): "Request"
// on a profile or directory card, and "Book again" on a completed task. Free of the task schemas, so
// the dashboard reads it without loading the wizard's chunk.

/** The request part, with the defaults the wizard offers: 24 hours to answer, then open to everyone. */
export function requestChoiceFor(providerId: string, providerName: string): RequestChoice {
  return { providerId, providerName, windowHours: DEFAULT_REQUEST_WINDOW_HOURS, fallback: "open" };
}

const place = (address: string | null, city: string | null, state: string | null, lat: number | null, lon: number | null): AddressValue => ({
  address: address ?? "",
  city: city ?? "",
  state: state ?? "",
  lat,
  lon,
});

/** The completed task again (title, description, category, budget, urgency, place), requested from its provider. */
export function bookAgainForm(task: TaskPrivate): Partial<PostTaskForm> {
  const common: Partial<PostTaskForm> = {
    title: task.title,
    description: task.description,
    category: task.category,
    budget: String(task.budget),
    urgency: task.urgency,
    hiringMode: "first_to_claim",
    request: task.provider ? requestChoiceFor(task.provider.id, task.provider.displayName) : null,
  };
  if (!task.isRoute) return { ...common, mode: "single", location: place(task.location, task.city, task.state, task.lat, task.lon) };
  return {
    ...common,
    mode: "route",
    start: place(task.startLocation, task.startCity, task.startState, task.startLat, task.startLon),
    end: place(task.endLocation, task.endCity, task.endState, task.endLat, task.endLon),
    stops: (task.stops ?? []).map((stop) => place(stop.address, stop.city, stop.state, null, null)),
  };
}
