// Business constants (docs/product.md: Fees, Timers) and the enumerations of tasks and users. Pure data: both the
// server and the web read these, so a rule changes in one place.

export const CATEGORIES = [
  { value: "errands", label: "Personal Errands" },
  { value: "delivery", label: "Delivery Services" },
  { value: "business", label: "Business Support" },
  { value: "cleaning", label: "Cleaning & Organization" },
  { value: "moving", label: "Moving & Transport" },
  { value: "shopping", label: "Shopping & Pickup" },
  { value: "pet", label: "Pet Care" },
  { value: "other", label: "Other Services" },
] as const;

export type Category = (typeof CATEGORIES)[number]["value"];
export const CATEGORY_VALUES = CATEGORIES.map((c) => c.value) as [Category, ...Category[]];

export function categoryLabel(value: string): string {
  return CATEGORIES.find((c) => c.value === value)?.label ?? value;
}

export const TASK_STATUSES = ["open", "claimed", "in_progress", "completed", "cancelled", "payment_expired", "requested"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

export const URGENCIES = ["standard", "urgent"] as const;
export type Urgency = (typeof URGENCIES)[number];

/**
 * How a task finds its provider, chosen when posting (docs/product.md, Offers): the first verified
 * provider to claim it, or the poster picks among offers.
 */
export const HIRING_MODES = ["first_to_claim", "offers"] as const;
export type HiringMode = (typeof HIRING_MODES)[number];

export const USER_ROLES = ["user", "provider", "both", "admin"] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const VERIFICATION_STATUSES = ["pending", "under_review", "approved", "rejected"] as const;
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];

export const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const CONTACT_METHODS = ["visit", "call", "text"] as const;

/** Money is integer cents everywhere inside; these are cents. */
export const MIN_BUDGET_CENTS = 2000;
export const URGENT_SURCHARGE_PERCENT = 15;
export const SERVICE_FEE_PERCENT = 8;
export const SERVICE_FEE_FIXED_CENTS = 50;
export const PROVIDER_SHARE_PERCENT = 85;
/** At or above this, payout waits for the poster's approval window (docs/product.md, Money). */
export const APPROVAL_WINDOW_THRESHOLD_CENTS = 10_000;
export const APPROVAL_WINDOW_HOURS = 24;
export const BLIND_REVIEW_DAYS = 14;

/** Either party may report a problem from payment until this long after completion (docs/product.md, Money: disputes). */
export const REPORT_PROBLEM_HOURS_AFTER_COMPLETION = 72;
/** A dispute with no admin action for this long is escalated on the admin dashboard. */
export const DISPUTE_ESCALATION_DAYS = 7;
/** A poster cancelling a paid task less than this long before its scheduled time pays a late-cancellation fee. */
export const LATE_CANCEL_HOURS = 24;
/** The late-cancellation fee: this percent of the budget, at least LATE_CANCEL_FEE_MIN_CENTS, never more than the escrow. */
export const LATE_CANCEL_FEE_PERCENT = 15;
export const LATE_CANCEL_FEE_MIN_CENTS = 500;

export const MAX_STOPS = 10;

/** Claimed tasks still waiting for payment that one provider may hold at once (docs/product.md#task-states). */
export const MAX_UNPAID_CLAIMS = 3;
export const STATE_MAX_LENGTH = 2;

export const ID_DOCUMENT_MAX_BYTES = 10_485_760;
export const PROFILE_PHOTO_MAX_BYTES = 5_242_880;
/** Longest side, in pixels, of the image others see of a profile photo (docs/product.md#verification). */
export const PROFILE_PHOTO_PUBLIC_SIDE = 512;
export const TASK_PHOTO_MAX_BYTES = 10_485_760;

export const CHAT_MESSAGE_MAX_LENGTH = 2000;
export const REVIEW_COMMENT_MAX_LENGTH = 1000;
export const RATING_MIN = 1;
export const RATING_MAX = 5;

/** docs/product.md "Passwords": length is what makes a password hard to guess. */
export const PASSWORD_MIN_LENGTH = 10;

export const FELIX_AUTO_SEND_DELAY_MS = 600;
export const GEOCODE_MIN_CHARS = 3;
export const GEOCODE_DEBOUNCE_MS = 500;
export const GEOCODE_LIMIT = 5;

export const OFFICE = {
  address: "100 Main Street, Suite 200, Annapolis, MD 21401",
  phone: "(410) 555-0142",
  supportEmail: "support@errandly.app",
  businessEmail: "hello@errandly.app",
  hours: "Monday to Sunday, 9:00 AM to 6:00 PM",
} as const;
