import { describe, expect, it, vi } from "vitest";
import { ApiError } from "./api";
import { applyServerErrors, plainWords } from "./server-errors";

interface Form {
  zipCode: string;
  city: string;
}

describe("applyServerErrors", () => {
  it("puts each field's message on the form field, focusing the first, and says the unplaced ones in plain words", () => {
    const setError = vi.fn();
    const error = new ApiError(400, "zipCode: must be 5 digits; lat: is invalid", { zipCode: "ZIP code must be 5 digits", lat: "is invalid" });
    const outcome = applyServerErrors<Form>(error, setError, { fields: ["zipCode", "city"], fallback: "Try again." });
    expect(setError.mock.calls).toEqual([["zipCode", { type: "server", message: "ZIP code must be 5 digits" }, { shouldFocus: true }]]);
    expect(outcome).toEqual({ placed: ["zipCode"], toast: "Is invalid." });
  });

  it("maps request paths through fieldOf", () => {
    const setError = vi.fn();
    const error = new ApiError(400, "x", { expYear: "Your card's expiration date is in the past.", cvc: "CVC must be 3 digits" });
    const outcome = applyServerErrors<{ expiry: string; cvc: string }>(error, setError, {
      fieldOf: (path) => (path === "expYear" ? "expiry" : path === "cvc" ? "cvc" : null),
      fallback: "Try again.",
    });
    expect(outcome).toEqual({ placed: ["expiry", "cvc"], toast: null });
    expect(setError.mock.calls.map((c) => [c[0], (c[2] as { shouldFocus: boolean }).shouldFocus])).toEqual([
      ["expiry", true],
      ["cvc", false],
    ]);
  });

  it("says the words of fields the form does not show, not the API message that names them", () => {
    const setError = vi.fn();
    const error = new ApiError(400, "title: Title must be at least 3 characters; description: Description is required", {
      title: "Title must be at least 3 characters",
      description: "Description is required",
    });
    expect(applyServerErrors<Form>(error, setError, { fields: ["city"], fallback: "Try again." })).toEqual({
      placed: [],
      toast: "Title must be at least 3 characters. Description is required.",
    });
    expect(setError).not.toHaveBeenCalled();
  });

  it("keeps other statuses on the toast and falls back for an error without words", () => {
    const setError = vi.fn();
    expect(applyServerErrors<Form>(new ApiError(409, "This task was already claimed"), setError, { fallback: "Try again." }).toast).toBe(
      "This task was already claimed.",
    );
    expect(applyServerErrors<Form>("boom", setError, { fallback: "Try again." }).toast).toBe("Try again.");
    expect(setError).not.toHaveBeenCalled();
  });
});

describe("plainWords", () => {
  it("ends each message as a sentence and reads nothing into its words", () => {
    expect(plainWords("is invalid", "Your card was declined.")).toBe("Is invalid. Your card was declined.");
    expect(plainWords("Note: the shop closes at six")).toBe("Note: the shop closes at six.");
  });
});
