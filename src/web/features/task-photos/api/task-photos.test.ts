import { describe, expect, it } from "vitest";
import { TASK_PHOTO_MAX_BYTES } from "@shared/constants";
import { photoFileProblem } from "./task-photos";

// What the browser says before sending a photo (docs/product.md#task-photos); the server checks the bytes again.

const fileOf = (type: string, bytes: number) => new File([new Uint8Array(bytes)], "photo", { type });

describe("photoFileProblem", () => {
  it("accepts JPEG, PNG and WebP up to 10 MB", () => {
    for (const type of ["image/jpeg", "image/png", "image/webp"]) expect(photoFileProblem(fileOf(type, 1000))).toBeNull();
    expect(photoFileProblem(fileOf("image/jpeg", TASK_PHOTO_MAX_BYTES))).toBeNull();
  });

  it("says what to do about another type or a larger file", () => {
    const notAPhoto = "This file is not a JPEG, PNG or WebP file. Choose a file in one of those formats and upload it again.";
    expect(photoFileProblem(fileOf("image/gif", 1000))).toBe(notAPhoto);
    expect(photoFileProblem(fileOf("application/pdf", 1000))).toBe(notAPhoto);
    expect(photoFileProblem(fileOf("image/png", TASK_PHOTO_MAX_BYTES + 1))).toBe("This file is larger than 10 MB. Choose a smaller file and upload it again.");
  });
});
