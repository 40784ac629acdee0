import { describe, expect, it } from "vitest";
import { requestOutcomeLine } from "./task-request-note";

// Issue 41: after a request was declined or accepted the poster's task page said nothing (only the
// bell told them); decision 082.

const ended = (requestOutcome: "accepted" | "declined" | "not_answered", status: "open" | "claimed" | "cancelled" | "completed", requestFallback: "open" | "cancel" = "open") => ({
  requestOutcome,
  status,
  requestFallback,
  requestedProviderName: "Sam P.",
});

describe("requestOutcomeLine", () => {
  it("says a declined or unanswered request, and what followed as the poster chose", () => {
    expect(requestOutcomeLine(ended("declined", "open"))).toBe("Sam P. declined your request. As you chose, your task is now open on the job board for every provider.");
    expect(requestOutcomeLine(ended("declined", "cancelled", "cancel"))).toBe("Sam P. declined your request. As you chose, the task was cancelled; nothing was charged.");
    expect(requestOutcomeLine(ended("not_answered", "open"))).toBe("Sam P. did not answer your request in time. As you chose, your task is now open on the job board for every provider.");
  });

  it("says an accepted request while the task is claimed, never as a claim", () => {
    expect(requestOutcomeLine(ended("accepted", "claimed"))).toBe("Sam P. accepted your request.");
    expect(requestOutcomeLine(ended("accepted", "completed"))).toBeNull();
  });

  it("says nothing without an outcome, or when the poster cancelled an opened task themselves", () => {
    expect(requestOutcomeLine({ ...ended("declined", "open"), requestOutcome: null })).toBeNull();
    expect(requestOutcomeLine(ended("declined", "cancelled", "open"))).toBeNull();
  });
});
