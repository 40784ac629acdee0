import { zodResolver } from "@hookform/resolvers/zod";
import { Controller, useWatch, type Path } from "react-hook-form";
import { applicationBodySchema, phoneSchema, type ApplicationBody, type ApplicationInput } from "@shared/providers";
import { US_STATES } from "@shared/us-states";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { APPLICATION_REVIEW_TIME } from "@/lib/application-review";
import { maxLengthOf } from "@/lib/form";
import { useSchemaForm } from "@/lib/schema-form";
import { useApply } from "../api/apply";
import { FileUpload } from "./file-upload";
import { AvailabilityFields, ServiceTypeFields } from "./profile-fields";

const fields = applicationBodySchema.shape;

/**
 * The provider application, validated by the server's own schema: errors show under each
 * field on submit. Submit stays disabled until both files are uploaded and the terms are agreed.
 */
export function ApplicationForm({ initial, onSubmitted }: { initial: { fullName: string; email: string }; onSubmitted: () => void }) {
  const form = useSchemaForm<ApplicationInput, ApplicationBody>({
    resolver: zodResolver(applicationBodySchema),
    defaultValues: { ...initial, phone: "", address: "", city: "", state: "", zipCode: "", bio: "", serviceTypes: [], availability: {} },
  });
  const apply = useApply();
  const { errors } = form.formState;
  const [agreeTerms, idDocumentUrl, profilePhotoUrl] = useWatch({
    control: form.control,
    name: ["agreeTerms", "idDocumentUrl", "profilePhotoUrl"],
  });

  // mutateAsync, not mutate's callbacks: the refreshed profile replaces this form with the status
  // card, and callbacks of an unmounted component's mutate never run.
  const onSubmit = form.handleSubmit((body) =>
    apply
      .mutateAsync(body)
      .then(() => {
        toast({ title: "Application Submitted!", description: `We'll review your application within ${APPLICATION_REVIEW_TIME}.` });
        onSubmitted();
      })
      .catch((error: unknown) => {
        // A refusal the server names by field shows under that field (docs/product.md#validation).
        // Every field of the schema has a control here, the photos and terms included.
        const rest = form.showServerErrors(error, "Your application could not be sent. Please try again.", (path) => {
          const field = path.split(".")[0] ?? "";
          return field in fields ? (path as Path<ApplicationInput>) : null;
        });
        if (rest) toast({ title: "Application Failed", description: rest, variant: "destructive" });
      }),
  );

  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-6" aria-label="Provider application">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Full Name" required error={errors.fullName?.message}>
          <Input autoComplete="name" maxLength={maxLengthOf(fields.fullName)} {...form.register("fullName")} />
        </FormField>
        <FormField label="Email" required error={errors.email?.message}>
          <Input type="email" autoComplete="email" maxLength={maxLengthOf(fields.email)} {...form.register("email")} />
        </FormField>
        <FormField label="Phone" required error={errors.phone?.message}>
          <Input type="tel" autoComplete="tel" placeholder="e.g. (410) 555-0100" maxLength={maxLengthOf(phoneSchema)} {...form.register("phone")} />
        </FormField>
        <FormField label="Address" required error={errors.address?.message}>
          <Input autoComplete="street-address" maxLength={maxLengthOf(fields.address)} {...form.register("address")} />
        </FormField>
        <FormField label="City" required error={errors.city?.message}>
          <Input autoComplete="address-level2" maxLength={maxLengthOf(fields.city)} {...form.register("city")} />
        </FormField>
        {/* State is a native list: the phone's own picker, and autofill matches "Maryland" to its option. */}
        <div className="grid grid-cols-2 gap-4">
          <FormField label="State" required error={errors.state?.message}>
            <select
              autoComplete="address-level1"
              className="flex h-10 w-full min-w-0 rounded-md border border-input bg-background px-3 py-2 text-base text-foreground focus-visible:outline-hidden focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background aria-invalid:border-destructive md:text-sm"
              {...form.register("state")}
            >
              <option value="" disabled>
                Choose…
              </option>
              {US_STATES.map((state) => (
                <option key={state.code} value={state.code}>
                  {state.name}
                </option>
              ))}
            </select>
          </FormField>
          <FormField label="ZIP Code" required error={errors.zipCode?.message}>
            <Input autoComplete="postal-code" inputMode="numeric" {...form.register("zipCode")} />
          </FormField>
        </div>
      </div>

      <Controller
        control={form.control}
        name="serviceTypes"
        render={({ field }) => <ServiceTypeFields value={field.value} onChange={field.onChange} error={errors.serviceTypes?.message} />}
      />

      <div className="grid gap-6 sm:grid-cols-2">
        <Controller
          control={form.control}
          name="idDocumentUrl"
          render={({ field }) => (
            <FileUpload kind="id_document" label="ID Document" required onUploaded={field.onChange} error={errors.idDocumentUrl?.message} />
          )}
        />
        <Controller
          control={form.control}
          name="profilePhotoUrl"
          render={({ field }) => (
            <FileUpload kind="profile_photo" label="Profile Photo" required onUploaded={field.onChange} error={errors.profilePhotoUrl?.message} />
          )}
        />
      </div>

      <Controller
        control={form.control}
        name="availability"
        render={({ field }) => <AvailabilityFields value={field.value ?? {}} onChange={field.onChange} />}
      />

      <FormField label="Bio" required description="Tell customers about yourself and your experience." error={errors.bio?.message}>
        <Textarea rows={4} maxLength={maxLengthOf(fields.bio)} {...form.register("bio")} />
      </FormField>

      <Controller
        control={form.control}
        name="agreeTerms"
        render={({ field }) => (
          <div className="grid gap-1">
            <div className="flex items-start gap-2">
              <Checkbox
                id="agree-terms"
                checked={field.value === true}
                onCheckedChange={(checked) => field.onChange(checked === true)}
                aria-invalid={errors.agreeTerms ? true : undefined}
              />
              <Label htmlFor="agree-terms" className="leading-snug font-normal">
                I agree to the terms of service, and to our team reviewing my ID document and photo
              </Label>
            </div>
            {errors.agreeTerms ? <p className="text-sm font-medium text-destructive">{errors.agreeTerms.message}</p> : null}
          </div>
        )}
      />

      <Button type="submit" size="lg" disabled={agreeTerms !== true || !idDocumentUrl || !profilePhotoUrl || apply.isPending}>
        {apply.isPending ? "Submitting..." : "Submit Application"}
      </Button>
    </form>
  );
}
