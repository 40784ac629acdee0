import { OFFICE } from "@shared/constants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { AppointmentForm } from "@/features/site/components/appointment-form";
import { OfficeAddressItems } from "@/features/site/components/office-contact";

export default function BookAppointmentPage() {
  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 lg:py-16">
      <header className="mb-8 text-center">
        <h1 className="text-4xl font-bold tracking-tight">Schedule an Office Visit</h1>
        <p className="mt-3 text-lg text-muted-foreground">
          Our office is open by appointment only, {OFFICE.hours}. Please request your visit at least 1 day in advance.
        </p>
      </header>
      <Card>
        <CardHeader>
          <CardTitle asChild className="text-xl">
            <h2>Appointment Request</h2>
          </CardTitle>
          <CardDescription>We don&apos;t offer same-day appointments. We&apos;ll confirm your time by your preferred contact method.</CardDescription>
        </CardHeader>
        <CardContent>
          <AppointmentForm />
        </CardContent>
      </Card>
      <section aria-labelledby="office-location" className="mt-8 rounded-lg border bg-muted/40 p-6">
        <h2 id="office-location" className="text-lg font-semibold">
          Office Location
        </h2>
        <ul className="mt-3 space-y-2 text-sm">
          <OfficeAddressItems />
        </ul>
      </section>
    </div>
  );
}
