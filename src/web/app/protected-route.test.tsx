// @vitest-environment jsdom
import { screen } from "@testing-library/react";
import { describe, expect, it, vi } from "vitest";
import { ADMIN_SECOND_FACTOR_MESSAGE } from "@shared/security-rules";
import type * as Api from "@/lib/api";
import { goToLogin } from "@/lib/api";
import { fakeApi, renderWithApp } from "@/testing/render";
import { ProtectedRoute } from "./protected-route";

// The admin pages follow the server's answer, not the role: admin powers need a second factor
// (docs/decisions/068-admin-powers-need-two-factors.md). An admin on one factor is shown how to get
// them, anyone else without them "Access Denied". A visitor is sent to sign in, coming back to the
// page (goToLogin's default; the server's /api/login?returnTo= is auth.test.ts's).

// jsdom cannot follow a full-page navigation: the visit to sign in is recorded instead.
vi.mock("@/lib/api", async (original) => ({ ...(await original<typeof Api>()), goToLogin: vi.fn() }));

const person = (role: "admin" | "user", isAdmin: boolean, adminNeedsSecondFactor: boolean) => ({
  id: "00000000-0000-4000-8000-000000000001",
  email: "ada@example.test",
  firstName: "Ada",
  lastName: "Admin",
  first_name: "Ada",
  last_name: "Admin",
  name: "Ada Admin",
  profileImageUrl: null,
  role,
  isAdmin,
  adminNeedsSecondFactor,
  emailVerified: true,
  createdAt: "2026-01-01T00:00:00.000Z",
});

function renderAdminPage(user: ReturnType<typeof person> | null) {
  fakeApi({ "GET /api/auth/user": { body: user } });
  renderWithApp(
    <ProtectedRoute role="admin">
      <h1>Admin Dashboard</h1>
    </ProtectedRoute>,
  );
}

describe("an admin page", () => {
  it("opens for an admin on two factors", async () => {
    renderAdminPage(person("admin", true, false));
    expect(await screen.findByRole("heading", { name: "Admin Dashboard" })).toBeTruthy();
  });

  it("tells an admin on one factor to add a second factor, with the way there", async () => {
    renderAdminPage(person("admin", false, true));
    expect(await screen.findByRole("heading", { name: "Add a second factor first" })).toBeTruthy();
    expect(screen.getByText(ADMIN_SECOND_FACTOR_MESSAGE)).toBeTruthy();
    expect(screen.getByRole("link", { name: "Add a second factor" }).getAttribute("href")).toBe("/settings/security");
    expect(screen.queryByRole("heading", { name: "Admin Dashboard" })).toBeNull();
  });

  it("is denied to anyone else", async () => {
    renderAdminPage(person("user", false, false));
    expect(await screen.findByRole("heading", { name: "Access Denied" })).toBeTruthy();
  });

  // Once e2e/public-site.e2e.ts's admin inbox journey, which followed it to /sign-in?returnTo=%2Fadmin%2Finbox.
  it("sends a visitor to sign in, back to this page, without showing it", async () => {
    vi.mocked(goToLogin).mockClear();
    renderAdminPage(null);
    await vi.waitFor(() => expect(goToLogin).toHaveBeenCalledTimes(1));
    // No argument: goToLogin comes back to the current path and query.
    expect(vi.mocked(goToLogin).mock.calls[0]).toEqual([]);
    expect(screen.queryByRole("heading", { name: "Admin Dashboard" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "Access Denied" })).toBeNull();
  });
});
