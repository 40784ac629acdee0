import { useState, type FormEvent } from "react";
import { STATE_MAX_LENGTH, type Category } from "@shared/constants";
import type { Availability } from "@shared/providers";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useApply } from "../api/apply";
import { FileUpload } from "./file-upload";
import { AvailabilityFields, ServiceTypeFields } from "./profile-fields";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";

type Text = { fullName: string; email: string; phone: string; address: string; city: string; state: string; zipCode: string; bio: string };

/** The application form of spec §2 and its submit rules of §5. */
export function ApplicationForm({ initial, onSubmitted }: { initial: { fullName: string; email: string }; onSubmitted: () => void }) {
  const [text, setText] = useState<Text>({ ...initial, phone: "", address: "", city: "", state: "", zipCode: "", bio: "" });
  const [serviceTypes, setServiceTypes] = useState<Category[]>([]);
  const [availability, setAvailability] = useState<Availability>({});
  const [idDocumentUrl, setIdDocumentUrl] = useState<string | null>(null);
  const [profilePhotoUrl, setProfilePhotoUrl] = useState<string | null>(null);
  const [agreeTerms, setAgreeTerms] = useState(false);
  const apply = useApply();

  const field = (name: keyof Text) => ({
    value: text[name],
    onChange: (event: { target: { value: string } }) => setText((prev) => ({ ...prev, [name]: event.target.value })),
  });

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!idDocumentUrl) {
      toast({ title: "ID Document Required", description: "Please upload your identification document to continue.", variant: "destructive" });
      return;
    }
    if (!profilePhotoUrl) {
      toast({ title: "Profile Photo Required", description: "Please upload your profile photo to continue.", variant: "destructive" });
      return;
    }
    if (serviceTypes.length === 0) {
      toast({ title: "Service Type Required", description: "Please select at least one service type.", variant: "destructive" });
      return;
    }
    // mutateAsync, not mutate's callbacks: the refreshed profile replaces this form with the
    // status card, and callbacks of an unmounted component's mutate never run.
    apply
      .mutateAsync({ ...text, serviceTypes, availability, idDocumentUrl, profilePhotoUrl, agreeTerms: true })
      .then(() => {
        toast({ title: "Application Submitted!", description: `We'll review your application within ${APPLICATION_REVIEW_TIME}.` });
        onSubmitted();
      })
      .catch((error: unknown) => {
        toast({
          title: "Application Failed",
          description: errorMessage(error, "Failed to submit application. Please try again."),
          variant: "destructive",
        });
      });
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-6" aria-label="Provider application">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Full Name" required>
          <Input name="fullName" autoComplete="name" required maxLength={120} {...field("fullName")} />
        </FormField>
        <FormField label="Email" required>
          <Input name="email" type="email" autoComplete="email" required {...field("email")} />
        </FormField>
        <FormField label="Phone" required>
          <Input name="phone" type="tel" autoComplete="tel" required placeholder="(410) 555-0100" {...field("phone")} />
        </FormField>
        <FormField label="Address" required>
          <Input name="address" autoComplete="street-address" required maxLength={200} {...field("address")} />
        </FormField>
        <FormField label="City" required>
          <Input name="city" autoComplete="address-level2" required maxLength={100} {...field("city")} />
        </FormField>
        <div className="grid grid-cols-2 gap-4">
          <FormField label="State" required>
            <Input name="state" autoComplete="address-level1" required placeholder="MD" maxLength={STATE_MAX_LENGTH} {...field("state")} />
          </FormField>
          <FormField label="ZIP Code" required>
            <Input name="zipCode" autoComplete="postal-code" required inputMode="numeric" maxLength={10} {...field("zipCode")} />
          </FormField>
        </div>
      </div>

      <ServiceTypeFields value={serviceTypes} onChange={setServiceTypes} />

      <div className="grid gap-6 sm:grid-cols-2">
        <FileUpload kind="id_document" label="ID Document" required onUploaded={setIdDocumentUrl} />
        <FileUpload kind="profile_photo" label="Profile Photo" required onUploaded={setProfilePhotoUrl} />
      </div>

      <AvailabilityFields value={availability} onChange={setAvailability} />

      <FormField label="Bio" required description="Tell customers about yourself and your experience.">
        <Textarea name="bio" rows={4} required maxLength={2000} {...field("bio")} />
      </FormField>

      <div className="flex items-start gap-2">
        <Checkbox id="agree-terms" checked={agreeTerms} onCheckedChange={(checked) => setAgreeTerms(checked === true)} />
        <Label htmlFor="agree-terms" className="leading-snug font-normal">
          I agree to the terms of service and consent to a background check
        </Label>
      </div>

      <Button type="submit" size="lg" disabled={!agreeTerms || !idDocumentUrl || !profilePhotoUrl || apply.isPending}>
        {apply.isPending ? "Submitting..." : "Submit Application"}
      </Button>
    </form>
  );
}
