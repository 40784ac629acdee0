import { MapPin, Phone } from "lucide-react";
import { OFFICE } from "@shared/constants";

export const OFFICE_TEL_HREF = `tel:${OFFICE.phone.replace(/[^\d+]/g, "")}`;

/** The office's postal address and phone, as list items for a contact list. */
export function OfficeAddressItems() {
  return (
    <>
      <li className="flex gap-3">
        <MapPin className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <address className="not-italic">{OFFICE.address}</address>
      </li>
      <li className="flex gap-3">
        <Phone className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden="true" />
        <a href={OFFICE_TEL_HREF} className="underline-offset-4 hover:underline">
          {OFFICE.phone}
        </a>
      </li>
    </>
  );
}
