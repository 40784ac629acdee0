import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applicationBodySchema, objectPathSchema, phoneSchema, profilePatchSchema, zipCodeSchema } from "./providers.js";

const valid = {
  fullName: "Pat Lee",
  email: "Pat@Example.test",
  phone: "410-555-0100",
  address: "1 Main St",
  city: "Annapolis",
  state: "md",
  zipCode: "21401-1234",
  serviceTypes: ["errands", "errands", "pet"],
  idDocumentUrl: "/objects/0b9f3c0e-8f1a-4c41-9d0e-3b1f2a6c7d8e",
  profilePhotoUrl: "/objects/1b9f3c0e-8f1a-4c41-9d0e-3b1f2a6c7d8e",
  bio: "Hello",
  agreeTerms: true,
};

describe("provider contracts", () => {
  it("normalises a valid application", () => {
    const parsed = applicationBodySchema.parse(valid);
    expect(parsed).toMatchObject({ email: "pat@example.test", state: "MD", serviceTypes: ["errands", "pet"], availability: {} });
  });

  it("accepts exactly 5 or 5+4 digit ZIP codes", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{5}(-\d{4})?$/), (zip) => zipCodeSchema.safeParse(zip).success),
    );
    for (const bad of ["2140", "214011", "21401-12", "ABCDE", "21401 1234"]) expect(zipCodeSchema.safeParse(bad).success).toBe(false);
  });

  it("needs at least 10 digits in a phone number, whatever the punctuation", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 0, maxLength: 15 }), (digits) => {
        const phone = `(${digits.join(" ")})`;
        return phoneSchema.safeParse(phone).success === (digits.length >= 10 && phone.length <= 30);
      }),
    );
  });

  it("accepts only our object paths", () => {
    expect(objectPathSchema.safeParse("/objects/../etc/passwd").success).toBe(false);
    expect(objectPathSchema.safeParse("https://evil.example/objects/0b9f3c0e-8f1a-4c41-9d0e-3b1f2a6c7d8e").success).toBe(false);
    expect(objectPathSchema.safeParse(valid.idDocumentUrl).success).toBe(true);
  });

  it("refuses terms not agreed and unknown profile fields", () => {
    expect(applicationBodySchema.safeParse({ ...valid, agreeTerms: false }).success).toBe(false);
    expect(profilePatchSchema.safeParse({ phone: "4105550100" }).success).toBe(false);
    expect(profilePatchSchema.safeParse({ hourlyRate: 12.345 }).success).toBe(false);
  });
});
