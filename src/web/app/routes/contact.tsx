import { Clock, Mail } from "lucide-react";
import { OFFICE } from "@shared/constants";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { ContactForm } from "@/features/site/components/contact-form";
import { OfficeAddressItems } from "@/features/site/components/office-contact";

const QUICK_SUPPORT = [
  { title: "For Users", text: "Posting tasks, payments, escrow and refunds.", email: OFFICE.supportEmail },
  { title: "For Providers", text: "Applications, verification, claiming tasks and payouts.", email: OFFICE.supportEmail },
  { title: "Technical Issues", text: "Trouble signing in, a page not working, or a bug to report.", email: OFFICE.supportEmail },
  { title: "Business Inquiries", text: "Partnerships, press and business accounts.", email: OFFICE.businessEmail },
];

export default function ContactPage() {
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 lg:py-16">
      <header className="mb-10 text-center">
        <h1 className="text-4xl font-bold tracking-tight">Contact Us</h1>
        <p className="mt-3 text-lg text-muted-foreground">Have questions? We&apos;re here to help.</p>
      </header>
      <div className="grid gap-8 lg:grid-cols-3">
        <Card className="lg:col-span-2">
          <CardHeader>
            <CardTitle asChild>
              <h2>Get in Touch</h2>
            </CardTitle>
            <CardDescription>Send us a message and we&apos;ll reply within 24 hours.</CardDescription>
          </CardHeader>
          <CardContent>
            <ContactForm />
          </CardContent>
        </Card>
        <div className="space-y-8">
          <Card>
            <CardHeader>
              <CardTitle asChild className="text-xl">
                <h2>Contact Information</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-4 text-sm">
                <OfficeAddressItems />
                <li className="flex gap-3">
                  <Mail className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
                  <span className="flex flex-col gap-1">
                    <a href={`mailto:${OFFICE.supportEmail}`} className="underline-offset-4 hover:underline">
                      {OFFICE.supportEmail}
                    </a>
                    <a href={`mailto:${OFFICE.businessEmail}`} className="underline-offset-4 hover:underline">
                      {OFFICE.businessEmail}
                    </a>
                  </span>
                </li>
                <li className="flex gap-3">
                  <Clock className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
                  <span>
                    {OFFICE.hours}
                    <br />
                    By appointment only
                  </span>
                </li>
              </ul>
            </CardContent>
          </Card>
          <Card>
            <CardHeader>
              <CardTitle asChild className="text-xl">
                <h2>Quick Support</h2>
              </CardTitle>
            </CardHeader>
            <CardContent>
              <ul className="space-y-4 text-sm">
                {QUICK_SUPPORT.map((s) => (
                  <li key={s.title}>
                    <h3 className="font-semibold">{s.title}</h3>
                    <p className="text-muted-foreground">{s.text}</p>
                    <a href={`mailto:${s.email}`} className="text-primary underline underline-offset-4">
                      {s.email}
                    </a>
                  </li>
                ))}
              </ul>
            </CardContent>
          </Card>
        </div>
      </div>
    </div>
  );
}
