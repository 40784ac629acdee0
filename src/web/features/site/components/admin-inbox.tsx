import { formatDate } from "@/lib/dates";
import { useState, type ReactNode } from "react";
import { CONTACT_METHOD_LABELS } from "@shared/site";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { errorMessage } from "@/lib/api";
import { useAppointments } from "../api/get-appointments";
import { useContactMessages } from "../api/get-contact-messages";

const PAGE_SIZE = 20;

const when = (iso: string) => formatDate(new Date(iso), "MMM d, yyyy h:mm a");

/** Contact messages and appointment requests for admins, newest first. */
export function AdminInbox() {
  return (
    <Tabs defaultValue="messages">
      <TabsList>
        <TabsTrigger value="messages">Contact Messages</TabsTrigger>
        <TabsTrigger value="appointments">Appointment Requests</TabsTrigger>
      </TabsList>
      <TabsContent value="messages" className="mt-6">
        <ContactMessagesTable />
      </TabsContent>
      <TabsContent value="appointments" className="mt-6">
        <AppointmentsTable />
      </TabsContent>
    </Tabs>
  );
}

function ContactMessagesTable() {
  const [page, setPage] = useState(1);
  const query = useContactMessages(page, PAGE_SIZE);
  return (
    <Listing
      caption="Contact messages"
      columns={["Received", "From", "Subject", "Message"]}
      query={query}
      empty="No contact messages yet."
      page={page}
      onPage={setPage}
      rows={(query.data?.items ?? []).map((m) => ({
        id: m.id,
        cells: [
          when(m.createdAt),
          <FromCell key="from" name={m.name} email={m.email} />,
          m.subject,
          <p key="message" className="max-w-prose whitespace-pre-wrap break-words">
            {m.message}
          </p>,
        ],
      }))}
    />
  );
}

function AppointmentsTable() {
  const [page, setPage] = useState(1);
  const query = useAppointments(page, PAGE_SIZE);
  return (
    <Listing
      caption="Appointment requests"
      columns={["Received", "From", "Phone", "Requested time", "Contact by", "Reason"]}
      query={query}
      empty="No appointment requests yet."
      page={page}
      onPage={setPage}
      rows={(query.data?.items ?? []).map((a) => ({
        id: a.id,
        cells: [
          when(a.createdAt),
          <FromCell key="from" name={a.name} email={a.email} />,
          <a key="phone" href={`tel:${a.phone}`} className="underline-offset-4 hover:underline">
            {a.phone}
          </a>,
          when(a.appointmentDate),
          CONTACT_METHOD_LABELS[a.preferContact],
          <p key="reason" className="max-w-prose whitespace-pre-wrap break-words">
            {a.reason}
          </p>,
        ],
      }))}
    />
  );
}

function FromCell({ name, email }: { name: string; email: string }) {
  return (
    <div>
      <p className="font-medium">{name}</p>
      <a href={`mailto:${email}`} className="text-sm text-muted-foreground underline-offset-4 hover:underline">
        {email}
      </a>
    </div>
  );
}

interface ListingProps {
  caption: string;
  columns: string[];
  query: { data?: { total: number }; isPending: boolean; isError: boolean; error: unknown };
  empty: string;
  page: number;
  onPage: (page: number) => void;
  rows: { id: string; cells: ReactNode[] }[];
}

function Listing({ caption, columns, query, empty, page, onPage, rows }: ListingProps) {
  if (query.isPending) {
    return (
      <div className="flex justify-center py-12">
        <Spinner />
      </div>
    );
  }
  if (query.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(query.error, `Failed to load ${caption.toLowerCase()}.`)}</AlertDescription>
      </Alert>
    );
  }
  const total = query.data?.total ?? 0;
  if (total === 0) return <p className="py-12 text-center text-muted-foreground">{empty}</p>;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <div className="space-y-4">
      <div className="overflow-x-auto rounded-lg border">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-muted/50">
            <tr>
              {columns.map((c) => (
                <th key={c} scope="col" className="px-4 py-3 font-semibold">
                  {c}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.id} className="border-t align-top">
                {row.cells.map((cell, i) => (
                  <td key={columns[i]} className="px-4 py-3">
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <nav aria-label={`${caption} pages`} className="flex items-center justify-between gap-4">
        <p className="text-sm text-muted-foreground">
          Page {page} of {pages} · {total} in total
        </p>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
            Previous
          </Button>
          <Button variant="outline" size="sm" disabled={page >= pages} onClick={() => onPage(page + 1)}>
            Next
          </Button>
        </div>
      </nav>
    </div>
  );
}
