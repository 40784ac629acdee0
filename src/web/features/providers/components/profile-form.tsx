import { useState, type FormEvent } from "react";
import type { Category } from "@shared/constants";
import type { Availability, ProviderProfile } from "@shared/providers";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { errorMessage } from "@/lib/api";
import { useUpdateProfile } from "../api/update-profile";
import { FileUpload } from "./file-upload";
import { AvailabilityFields, ServiceTypeFields } from "./profile-fields";

/** What a provider may change after applying: bio, rate, services, availability, photo. */
export function ProfileForm({ profile }: { profile: ProviderProfile }) {
  const [bio, setBio] = useState(profile.bio);
  const [hourlyRate, setHourlyRate] = useState(profile.hourlyRate === null ? "" : String(profile.hourlyRate));
  const [serviceTypes, setServiceTypes] = useState<Category[]>(profile.serviceTypes as Category[]);
  const [availability, setAvailability] = useState<Availability>(profile.availability);
  const [photo, setPhoto] = useState<string | null>(null);
  const update = useUpdateProfile();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (serviceTypes.length === 0) {
      toast({ title: "Service Type Required", description: "Please select at least one service type.", variant: "destructive" });
      return;
    }
    update.mutate(
      {
        bio,
        hourlyRate: hourlyRate.trim() === "" ? null : Number(hourlyRate),
        serviceTypes,
        availability,
        ...(photo ? { profilePhotoUrl: photo } : {}),
      },
      {
        onSuccess: () => toast({ title: "Profile Updated", description: "Your provider profile has been saved." }),
        onError: (error) =>
          toast({ title: "Error", description: errorMessage(error, "Failed to update profile. Please try again."), variant: "destructive" }),
      },
    );
  }

  return (
    <form onSubmit={onSubmit} className="grid gap-6" aria-label="Provider profile">
      <FormField label="Bio" required>
        <Textarea rows={4} required maxLength={2000} value={bio} onChange={(e) => setBio(e.target.value)} />
      </FormField>
      <FormField label="Hourly Rate ($)" description="Leave empty to hide your rate.">
        <Input type="number" min={0} max={10000} step="0.01" inputMode="decimal" value={hourlyRate} onChange={(e) => setHourlyRate(e.target.value)} />
      </FormField>
      <ServiceTypeFields value={serviceTypes} onChange={setServiceTypes} />
      <AvailabilityFields value={availability} onChange={setAvailability} />
      <FileUpload kind="profile_photo" label="Profile Photo" onUploaded={setPhoto} />
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save Profile"}
      </Button>
    </form>
  );
}
