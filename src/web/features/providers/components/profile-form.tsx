import { zodResolver } from "@hookform/resolvers/zod";
import { Controller } from "react-hook-form";
import type { z } from "zod";
import type { Category } from "@shared/constants";
import { profilePatchSchema, type ProviderProfile } from "@shared/providers";
import { Button } from "@/components/ui/button";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { maxLengthOf, maxValueOf, minValueOf, optionalAmountText } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useUpdateProfile } from "../api/update-profile";
import { FileUpload } from "./file-upload";
import { AvailabilityFields, ServiceTypeFields } from "./profile-fields";

const fields = profilePatchSchema.shape;

// The PATCH schema with every field the editor always sends made required; the hourly rate is typed
// as text (empty hides it) and judged by the schema's own number rules.
const profileFormSchema = profilePatchSchema.required({ bio: true, serviceTypes: true, availability: true }).extend({
  hourlyRate: optionalAmountText(fields.hourlyRate.unwrap().unwrap()),
});
type ProfileFormInput = z.input<typeof profileFormSchema>;
type ProfileFormValues = z.output<typeof profileFormSchema>;

/** What a provider may change after applying: bio, rate, services, availability, photo. */
export function ProfileForm({ profile }: { profile: ProviderProfile }) {
  const form = useSchemaForm<ProfileFormInput, ProfileFormValues>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: {
      bio: profile.bio,
      hourlyRate: profile.hourlyRate === null ? "" : String(profile.hourlyRate),
      serviceTypes: profile.serviceTypes as Category[],
      availability: profile.availability,
    },
  });
  const update = useUpdateProfile();
  const { errors } = form.formState;

  const onSubmit = form.handleSubmit((patch) =>
    update.mutate(patch, {
      onSuccess: () => toast({ title: "Profile Updated", description: "Your provider profile has been saved." }),
      onError: (error) => {
        const rest = form.showServerErrors(error, "Failed to update profile. Please try again.");
        if (rest) toast({ title: "Error", description: rest, variant: "destructive" });
      },
    }),
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-6" aria-label="Provider profile">
      <FormField label="Bio" required error={errors.bio?.message}>
        <Textarea rows={4} maxLength={maxLengthOf(fields.bio)} {...form.register("bio")} />
      </FormField>
      <FormField label="Hourly Rate ($)" description="Leave empty to hide your rate." error={errors.hourlyRate?.message}>
        <Input
          type="number"
          min={minValueOf(fields.hourlyRate)}
          max={maxValueOf(fields.hourlyRate)}
          step="0.01"
          inputMode="decimal"
          {...form.register("hourlyRate")}
        />
      </FormField>
      <Controller
        control={form.control}
        name="serviceTypes"
        render={({ field }) => <ServiceTypeFields value={field.value} onChange={field.onChange} error={errors.serviceTypes?.message} />}
      />
      <Controller
        control={form.control}
        name="availability"
        render={({ field }) => <AvailabilityFields value={field.value} onChange={field.onChange} />}
      />
      <Controller
        control={form.control}
        name="profilePhotoUrl"
        render={({ field }) => (
          <FileUpload kind="profile_photo" label="Profile Photo" onUploaded={field.onChange} error={errors.profilePhotoUrl?.message} />
        )}
      />
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? "Saving..." : "Save Profile"}
      </Button>
    </form>
  );
}
