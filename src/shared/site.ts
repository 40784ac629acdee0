import { z } from "zod";
import { emailSchema, isoDateTimeSchema, text } from "./common.js";
import { CONTACT_METHODS } from "./constants.js";
import { OFFICE_TIME_ZONE, startOfTomorrowIn, startOfTomorrowLocal, withinOfficeHours } from "./office-clock.js";

// Contracts of the public contact form and the office-appointment request (docs/product.md, Contact and appointments).
// The forms validate with these same schemas; the server adds the clock-dependent date rule
// (docs/decisions/013-contact-and-appointments.md).

export const contactBodySchema = z.object({
  name: text(1, 100, "Name"),
  email: emailSchema,
  subject: text(1, 200, "Subject"),
  message: text(1, 5000, "Message"),
});
export type ContactBody = z.infer<typeof contactBodySchema>;

export const APPOINTMENT_MESSAGES = {
  name: "Name must be at least 2 characters",
  phone: "Phone number must be at least 10 digits",
  tooSoon: "Appointment must be scheduled at least 1 day in advance",
  tooFar: "Appointment must be within the next 12 months",
  hours: "Please choose a time between 9:00 AM and 6:00 PM (office time, Eastern)",
  reason: "Please provide a detailed reason (at least 10 characters)",
  preferContact: "Please select your preferred contact method",
} as const;

/** How far ahead a request may be: a year is as far as the office plans its calendar. */
export const APPOINTMENT_MAX_AHEAD_DAYS = 365;

export const CONTACT_METHOD_LABELS: Record<(typeof CONTACT_METHODS)[number], string> = {
  visit: "Office Visit",
  call: "Phone Call",
  text: "Text Message",
};

const phoneSchema = z
  .string({ error: APPOINTMENT_MESSAGES.phone })
  .trim()
  .min(10, { error: APPOINTMENT_MESSAGES.phone })
  .max(30, { error: "Phone number must be at most 30 characters" })
  // Ten characters of punctuation are not a phone number; the message already speaks of digits.
  .refine((v) => v.replace(/\D/g, "").length >= 10, { error: APPOINTMENT_MESSAGES.phone });

const appointmentFields = {
  name: z
    .string({ error: APPOINTMENT_MESSAGES.name })
    .trim()
    .min(2, { error: APPOINTMENT_MESSAGES.name })
    .max(100, { error: "Name must be at most 100 characters" }),
  email: emailSchema,
  phone: phoneSchema,
  reason: z
    .string({ error: APPOINTMENT_MESSAGES.reason })
    .trim()
    .min(10, { error: APPOINTMENT_MESSAGES.reason })
    .max(2000, { error: "Reason must be at most 2000 characters" }),
  preferContact: z.enum(CONTACT_METHODS, { error: APPOINTMENT_MESSAGES.preferContact }).default("visit"),
};

/** What POST /api/appointments accepts: the date as an ISO date-time with offset. */
export const appointmentBodySchema = z.object({ ...appointmentFields, appointmentDate: isoDateTimeSchema });
export type AppointmentBody = z.infer<typeof appointmentBodySchema>;

/** Server rule: not before the office's tomorrow, not more than a year ahead, within opening hours; null when allowed. */
export function appointmentDateProblem(date: Date, now: Date): string | null {
  if (date.getTime() < startOfTomorrowIn(OFFICE_TIME_ZONE, now).getTime()) return APPOINTMENT_MESSAGES.tooSoon;
  if (date.getTime() > now.getTime() + APPOINTMENT_MAX_AHEAD_DAYS * 86_400_000) return APPOINTMENT_MESSAGES.tooFar;
  if (!withinOfficeHours(date)) return APPOINTMENT_MESSAGES.hours;
  return null;
}

/**
 * Earliest moment the form offers: the start of the visitor's tomorrow (docs/product.md, Contact and appointments), or the office's
 * tomorrow when that is later, so the form never accepts what the server refuses.
 */
export function earliestAppointment(now: Date): Date {
  const local = startOfTomorrowLocal(now);
  const office = startOfTomorrowIn(OFFICE_TIME_ZONE, now);
  return local.getTime() >= office.getTime() ? local : office;
}

/**
 * The form's schema: the date is the `datetime-local` value ("2026-11-22T10:00", local time),
 * checked against the clock when the form validates. `toAppointmentBody` turns it into the body.
 */
export function appointmentFormSchema(now: () => Date) {
  return z.object({
    ...appointmentFields,
    appointmentDate: z
      .string({ error: APPOINTMENT_MESSAGES.tooSoon })
      .refine((v) => !Number.isNaN(new Date(v).getTime()), { error: "Please choose a date and time" })
      .refine((v) => new Date(v).getTime() >= earliestAppointment(now()).getTime(), { error: APPOINTMENT_MESSAGES.tooSoon })
      .refine((v) => new Date(v).getTime() <= now().getTime() + APPOINTMENT_MAX_AHEAD_DAYS * 86_400_000, {
        error: APPOINTMENT_MESSAGES.tooFar,
      })
      .refine((v) => withinOfficeHours(new Date(v)), { error: APPOINTMENT_MESSAGES.hours }),
  });
}
export type AppointmentFormInput = z.input<ReturnType<typeof appointmentFormSchema>>;
export type AppointmentFormValues = z.output<ReturnType<typeof appointmentFormSchema>>;

export function toAppointmentBody(values: AppointmentFormValues): AppointmentBody {
  return { ...values, appointmentDate: new Date(values.appointmentDate).toISOString() };
}

/** "2026-11-22T00:00" for a `datetime-local` input's min, in the runtime's time zone. */
export function toDateTimeLocalValue(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

// Admin lists.

export const contactMessageSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  subject: z.string(),
  message: z.string(),
  createdAt: z.string(),
});
export type ContactMessage = z.infer<typeof contactMessageSchema>;

export const appointmentSchema = z.object({
  id: z.uuid(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  appointmentDate: z.string(),
  reason: z.string(),
  preferContact: z.enum(CONTACT_METHODS),
  createdAt: z.string(),
});
export type Appointment = z.infer<typeof appointmentSchema>;

function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), pageSize: z.number().int() });
}
export const contactMessagePageSchema = pageOf(contactMessageSchema);
export type ContactMessagePage = z.infer<typeof contactMessagePageSchema>;
export const appointmentPageSchema = pageOf(appointmentSchema);
export type AppointmentPage = z.infer<typeof appointmentPageSchema>;

export const createdResponseSchema = z.object({ ok: z.literal(true), id: z.uuid() });
