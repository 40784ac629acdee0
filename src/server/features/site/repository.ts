import { count, desc, lt } from "drizzle-orm";
import type { Appointment, AppointmentBody, ContactBody, ContactMessage } from "../../../shared/site.js";
import type { Db } from "../../db/client.js";
import { appointments, contactMessages } from "../../db/schema/site.js";

export interface Paging {
  page: number;
  pageSize: number;
}

export interface PageOf<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
}

/** How long visitor messages and appointment requests are kept (docs/decisions/013). */
export const SITE_RETENTION_DAYS = 730;

export async function insertContactMessage(db: Db, body: ContactBody, now: Date): Promise<string> {
  const [row] = await db.insert(contactMessages).values({ ...body, createdAt: now }).returning({ id: contactMessages.id });
  if (!row) throw new Error("contact message insert returned no row");
  return row.id;
}

export async function insertAppointment(db: Db, body: AppointmentBody, now: Date): Promise<string> {
  const [row] = await db
    .insert(appointments)
    .values({ ...body, appointmentDate: new Date(body.appointmentDate), createdAt: now })
    .returning({ id: appointments.id });
  if (!row) throw new Error("appointment insert returned no row");
  return row.id;
}

export async function listContactMessages(db: Db, { page, pageSize }: Paging): Promise<PageOf<ContactMessage>> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(contactMessages)
      .orderBy(desc(contactMessages.createdAt), desc(contactMessages.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(contactMessages),
  ]);
  return {
    items: rows.map((r) => ({ ...r, createdAt: r.createdAt.toISOString() })),
    total: total?.n ?? 0,
    page,
    pageSize,
  };
}

export async function listAppointments(db: Db, { page, pageSize }: Paging): Promise<PageOf<Appointment>> {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(appointments)
      .orderBy(desc(appointments.createdAt), desc(appointments.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(appointments),
  ]);
  return {
    items: rows.map((r) => ({
      ...r,
      appointmentDate: r.appointmentDate.toISOString(),
      createdAt: r.createdAt.toISOString(),
    })),
    total: total?.n ?? 0,
    page,
    pageSize,
  };
}

/** Drops what is older than the retention period; idempotent, so safe on several instances. */
export async function deleteExpiredSiteRecords(db: Db, now: Date): Promise<void> {
  const cutoff = new Date(now.getTime() - SITE_RETENTION_DAYS * 86_400_000);
  await db.delete(contactMessages).where(lt(contactMessages.createdAt, cutoff));
  // An appointment is kept until its retention period has passed since the visit itself.
  await db.delete(appointments).where(lt(appointments.appointmentDate, cutoff));
}
