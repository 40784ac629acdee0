import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useEffect, useState, type ReactNode } from "react";
import { Controller, useFieldArray, useWatch, type FieldErrors, type Path, type Resolver, type UseFormReturn } from "react-hook-form";
import { CATEGORIES, MAX_STOPS, MIN_BUDGET_CENTS, STATE_MAX_LENGTH, type HiringMode, type Urgency } from "@shared/constants";
import type { FelixContext } from "@shared/felix";
import { formatDollars, formatDollarsExact } from "@shared/money";
import { formatPlace } from "@shared/places";
import { REQUEST_FALLBACK_LABELS, REQUEST_FALLBACKS, REQUEST_WINDOW_HOURS, type RequestFallback } from "@shared/task-requests";
import { formatDateTime, formatTimeRange } from "@shared/calendar";
import { expectedDurationMinutes } from "@shared/task-duration";
import { DEFAULT_PAYMENT_WINDOW_MINUTES } from "@shared/task-lifecycle";
import { createTaskBodySchema, type TaskPrivate } from "@shared/tasks";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import { Switch } from "@/components/ui/switch";
import { Textarea } from "@/components/ui/textarea";
import { toast } from "@/components/ui/use-toast";
import { goToLogin, isUnauthorizedError } from "@/lib/api";
import { useUser } from "@/lib/current-user";
import { maxLengthOf } from "@/lib/form";
import { applyServerErrors } from "@/lib/server-errors";
import { useSchemaForm } from "@/lib/schema-form";
import { useCreateTask, type ValidTaskBody } from "../api/create-task";
import { AddressAutocomplete } from "./address-autocomplete";
import {
  addressFromSuggestion,
  addressFromTyping,
  budgetState,
  emptyAddress,
  emptyPostTaskForm,
  felixContextOf,
  formFieldOfBodyPath,
  STEP_FIELDS,
  stepOf,
  todayInputValue,
  validatePostTaskForm,
  type AddressValue,
  type PostTaskForm,
  type RequestChoice,
  type RequestTime,
} from "./post-task-form";
import { clearPostTaskDraft, loadPostTaskDraft, savePostTaskDraft } from "./post-task-draft";
import { POST_TASK_RETURN_PARAM } from "./post-task-return";

export interface BudgetHelperSlot {
  /** The task as typed so far, in Felix's context shape. */
  context: FelixContext;
  /** Sets the budget field (dollars). */
  applyBudget: (dollars: number) => void;
}

/** What the app's slot picker is handed: the requested provider, the task's length, the chosen time. */
export interface RequestTimeSlot {
  providerId: string;
  providerName: string;
  durationMinutes: number;
  value: string | null;
  onChange: (time: RequestTime | null) => void;
  error: string | undefined;
}

export interface PostTaskDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on close, when the button that opened it is not Radix's trigger (use-deferred-overlay.ts). */
  onCloseAutoFocus?: (event: Event) => void;
  /** Rendered beside the budget field: the app puts "Ask Felix" here. */
  budgetHelper?: (slot: BudgetHelperSlot) => ReactNode;
  /** Rendered in a request: the app puts the provider's free times here (docs/decisions/074-time-and-turning-up.md). */
  requestTime?: (slot: RequestTimeSlot) => ReactNode;
  /** A last step once the task is posted (the app's photo step); `done` closes the wizard. */
  afterPost?: (task: TaskPrivate, done: () => void) => ReactNode;
  /** Fields to start from instead of the draft: a request of one provider, or "Book again" (post-task-prefill.ts). */
  prefill?: Partial<PostTaskForm>;
  /** Told once the task is posted (the prefilled wizard's page then drops the address that opened it). */
  onPosted?: () => void;
}

const STEP_TITLES = ["Task Details", "Location & Budget", "Review"] as const;
const MIN_BUDGET = formatDollars(MIN_BUDGET_CENTS);
const LOGIN_REDIRECT_DELAY_MS = 500;

/** Where sign-in brings the person back: this page with the wizard open again (docs/product.md#post-a-task-draft). */
function returnToWizard(): string {
  const url = new URL(window.location.href);
  url.searchParams.set(POST_TASK_RETURN_PARAM, "task");
  return url.pathname + url.search;
}
const fields = createTaskBodySchema.shape;

/** Nests "stops.0.address"-style paths into the error tree react-hook-form reads. */
function nestErrors(issues: { field: string; message: string }[]): FieldErrors<PostTaskForm> {
  const root: Record<string, unknown> = {};
  for (const { field, message } of issues) {
    const parts = field.split(".");
    let node = root;
    parts.forEach((part, i) => {
      if (i === parts.length - 1) {
        node[part] ??= { type: "validate", message };
      } else {
        node[part] ??= {};
        node = node[part] as Record<string, unknown>;
      }
    });
  }
  return root as FieldErrors<PostTaskForm>;
}

/** The form is judged by the server's createTaskBodySchema; each refusal lands under its field. */
const postTaskResolver: Resolver<PostTaskForm, unknown, ValidTaskBody> = (values) => {
  const result = validatePostTaskForm(values);
  return result.ok ? { values: result.body, errors: {} } : { values: {}, errors: nestErrors(result.issues) };
};

type Form = UseFormReturn<PostTaskForm, unknown, ValidTaskBody>;

/** The Post a Task dialog (docs/product.md#tasks): three steps, Back/Next, Post Task ('Posting...' while pending). */
export function PostTaskDialog({ open, onOpenChange: setOpen, onCloseAutoFocus, budgetHelper, requestTime, afterPost, prefill, onPosted }: PostTaskDialogProps) {
  const [posted, setPosted] = useState<TaskPrivate | null>(null);
  const onOpenChange = (next: boolean) => {
    if (!next) setPosted(null);
    setOpen(next);
  };
  // The draft typed before a reload, a sign-in or a close comes back with its step (docs/product.md#post-a-task-draft).
  // A prefilled wizard (a request, "Book again") starts from its fields on the first step instead,
  // and is a one-off: it neither writes nor clears the ordinary draft, so closing it leaves the
  // Post a Task button as it was, not holding another provider's request (issue 41).
  const keepsDraft = prefill === undefined;
  const [draft] = useState(() => (prefill ? { step: 1, form: { ...emptyPostTaskForm(), ...prefill } } : loadPostTaskDraft()));
  const [step, setStep] = useState(draft?.step ?? 1);
  const form = useSchemaForm<PostTaskForm, ValidTaskBody>({
    resolver: postTaskResolver,
    defaultValues: draft?.form ?? emptyPostTaskForm(),
    mode: "onTouched",
  });
  const watched = useWatch({ control: form.control });
  // A server refusal moves to its step; the field is focused once that step is on screen.
  // A new object each time, so the same field is focused again after a second refusal.
  const [focusTarget, setFocusTarget] = useState<{ field: Path<PostTaskForm> } | null>(null);
  useEffect(() => {
    if (focusTarget) form.setFocus(focusTarget.field);
  }, [form, focusTarget]);
  const { isAuthenticated } = useUser();
  const createTask = useCreateTask();
  // Every change re-renders the wizard: the price, Felix's context and the review read the values,
  // and the draft is saved as typed.
  const values = form.getValues();
  useEffect(() => {
    if (keepsDraft) savePostTaskDraft({ step, form: form.getValues() });
  }, [form, step, watched, keepsDraft]);
  const budgetValid = budgetState(values.budget, values.urgency).kind === "valid";

  // Next checks this step's fields only; an invalid one keeps the step and shows why under it.
  const next = async () => {
    const stepFields = step === 1 ? STEP_FIELDS[1] : STEP_FIELDS[2];
    if (await form.trigger(stepFields, { shouldFocus: true })) setStep(step + 1);
  };

  const post = (body: ValidTaskBody) => {
    if (!isAuthenticated) {
      // The draft is saved as typed; sign-in or sign-up brings the person back to this step.
      toast({ title: "Sign in to post", description: "Sign in or create an account; your task will be here when you come back." });
      goToLogin(returnToWizard());
      return;
    }
    createTask.mutate(body, {
      onSuccess: (task) => {
        toast(postedToast(task));
        if (keepsDraft) clearPostTaskDraft();
        onPosted?.();
        if (afterPost) setPosted(task);
        else onOpenChange(false);
        setStep(1);
        form.reset(emptyPostTaskForm());
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) {
          toast({ title: "Signed out", description: "Sign in again to post; your task is kept.", variant: "destructive" });
          window.setTimeout(() => goToLogin(returnToWizard()), LOGIN_REDIRECT_DELAY_MS);
          return;
        }
        // A refusal lands under its field, on the step that asks for it (docs/product.md#validation).
        const values = form.getValues();
        const outcome = applyServerErrors(error, form.setError, {
          fieldOf: (path) => {
            const field = formFieldOfBodyPath(values, path.split(".").map((part) => (/^\d+$/.test(part) ? Number(part) : part)));
            return field === "root" ? null : (field as Path<PostTaskForm>);
          },
          fallback: "Your task could not be posted. Please try again.",
        });
        const [first] = outcome.placed;
        if (first) {
          setStep(stepOf(first));
          setFocusTarget({ field: first });
        }
        if (outcome.toast) toast({ title: "Task not posted", description: outcome.toast, variant: "destructive" });
      },
    });
  };

  // Should a field have changed since its step was checked, go back to the first step to fix.
  const submit = form.handleSubmit(post, (errors) => {
    const first = Object.keys(errors)[0];
    if (first) setStep(stepOf(first));
  });

  if (posted && afterPost) {
    return (
      <Dialog open={open} onOpenChange={onOpenChange}>
        <DialogContent className="sm:max-w-2xl" onCloseAutoFocus={onCloseAutoFocus}>
          <DialogHeader>
            <DialogTitle>Add photos</DialogTitle>
            <DialogDescription>Your task is posted. Photos help providers see the job (optional).</DialogDescription>
          </DialogHeader>
          {afterPost(posted, () => onOpenChange(false))}
        </DialogContent>
      </Dialog>
    );
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader>
          <DialogTitle>Post a Task</DialogTitle>
          <DialogDescription>
            Step {step} of 3: {STEP_TITLES[step - 1]}
          </DialogDescription>
          {values.request ? (
            // Whom the task goes to first is said, and can be dropped: the task then goes to everyone.
            <p className="flex flex-wrap items-center gap-x-2 text-sm font-medium">
              <span>Requesting {values.request.providerName}</span>
              <span aria-hidden="true">·</span>
              <Button
                type="button"
                variant="link"
                className="h-auto p-0"
                aria-label={`Remove the request to ${values.request.providerName}; post to every provider`}
                onClick={() => form.setValue("request", null, { shouldDirty: true })}
              >
                Remove
              </Button>
            </p>
          ) : null}
        </DialogHeader>

        <form noValidate onSubmit={(event) => event.preventDefault()} className="grid gap-4">
          {step === 1 && <DetailsStep form={form} />}
          {step === 2 && (
            <LocationBudgetStep
              form={form}
              values={values}
              requestTime={requestTime}
              budgetHelper={budgetHelper?.({
                context: felixContextOf(values),
                applyBudget: (dollars) => form.setValue("budget", String(dollars), { shouldValidate: true }),
              })}
            />
          )}
          {step === 3 && <ReviewStep form={values} />}
          {form.formState.errors.root?.message ? (
            <p className="text-sm font-medium text-destructive">{form.formState.errors.root.message}</p>
          ) : null}
        </form>

        <DialogFooter>
          {step > 1 && (
            <Button variant="outline" onClick={() => setStep(step - 1)} disabled={createTask.isPending}>
              Back
            </Button>
          )}
          {step < 3 ? (
            <Button onClick={() => void next()} disabled={step === 2 && !budgetValid}>
              Next
            </Button>
          ) : (
            <Button onClick={() => void submit()} disabled={createTask.isPending || !budgetValid}>
              {createTask.isPending ? "Posting..." : "Post Task"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

function DetailsStep({ form }: { form: Form }) {
  const { errors } = form.formState;
  return (
    <div className="grid gap-4">
      <FormField label="Task Title" required error={errors.title?.message}>
        <Input placeholder="e.g. Pick up groceries" maxLength={maxLengthOf(fields.title)} {...form.register("title")} />
      </FormField>
      <FormField label="Description" required error={errors.description?.message}>
        <Textarea rows={4} placeholder="Describe what needs to be done" maxLength={maxLengthOf(fields.description)} {...form.register("description")} />
      </FormField>
      <FormField label="Category" required error={errors.category?.message}>
        {(control) => (
          <Controller
            control={form.control}
            name="category"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange}>
                <SelectTrigger {...control} onBlur={field.onBlur}>
                  <SelectValue placeholder="Select a category" />
                </SelectTrigger>
                <SelectContent>
                  {CATEGORIES.map((category) => (
                    <SelectItem key={category.value} value={category.value}>
                      {category.label}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
        )}
      </FormField>
    </div>
  );
}

interface AddressFieldsProps {
  form: Form;
  name: "location" | "start" | "end" | `stops.${number}`;
  label: string;
  required?: boolean;
}

/**
 * An address with autocomplete; a pick fills city and state, which stay editable. Each part is its
 * own field, so the server's refusal of the address, the city or the state shows under that part.
 */
function AddressFields({ form, name, label, required = false }: AddressFieldsProps) {
  const set = (part: "city" | "state" | "lat" | "lon", value: string | number | null) =>
    form.setValue(`${name}.${part}`, value, { shouldValidate: form.formState.isSubmitted });
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_10rem_5rem]">
      <Controller
        control={form.control}
        name={`${name}.address`}
        render={({ field, fieldState }) => (
          <AddressAutocomplete
            label={label}
            required={required}
            value={field.value}
            placeholder="Start typing an address or town"
            error={fieldState.error?.message}
            onBlur={field.onBlur}
            onChange={(text) => {
              // Typing over a picked place drops its position: it no longer matches.
              const typed = addressFromTyping(form.getValues(name), text);
              field.onChange(typed.address);
              set("lat", typed.lat);
              set("lon", typed.lon);
            }}
            onSelect={(result) => {
              const picked = addressFromSuggestion(result);
              field.onChange(picked.address);
              set("city", picked.city);
              set("state", picked.state);
              set("lat", picked.lat);
              set("lon", picked.lon);
            }}
          />
        )}
      />
      <Controller
        control={form.control}
        name={`${name}.city`}
        render={({ field, fieldState }) => (
          <FormField label={`${label} city`} labelClassName="sr-only sm:not-sr-only" error={fieldState.error?.message}>
            <Input placeholder="City" maxLength={maxLengthOf(fields.city)} {...field} />
          </FormField>
        )}
      />
      <Controller
        control={form.control}
        name={`${name}.state`}
        render={({ field, fieldState }) => (
          <FormField label={`${label} state`} labelClassName="sr-only sm:not-sr-only" error={fieldState.error?.message}>
            <Input placeholder="e.g. MD" maxLength={STATE_MAX_LENGTH} {...field} onChange={(event) => field.onChange(event.target.value.toUpperCase())} />
          </FormField>
        )}
      />
    </div>
  );
}

function LocationBudgetStep({
  form,
  values,
  budgetHelper,
  requestTime,
}: {
  form: Form;
  values: PostTaskForm;
  budgetHelper: ReactNode;
  requestTime: PostTaskDialogProps["requestTime"];
}) {
  const { errors } = form.formState;
  const stops = useFieldArray({ control: form.control, name: "stops" });
  const { mode } = values;
  // The budget is judged as it is typed (the minimum matters before Next).
  const budget = form.register("budget", { onChange: () => void form.trigger("budget") });

  return (
    <div className="grid gap-5">
      <Controller
        control={form.control}
        name="mode"
        render={({ field }) => (
          <div className="flex items-center gap-3">
            <Switch id="route-mode" checked={field.value === "route"} onCheckedChange={(checked) => field.onChange(checked ? "route" : "single")} />
            <Label htmlFor="route-mode">Multi-stop route</Label>
          </div>
        )}
      />

      {mode === "single" ? (
        <AddressFields form={form} name="location" label="Location" required />
      ) : (
        <fieldset className="grid gap-4">
          <legend className="sr-only">Route</legend>
          <AddressFields form={form} name="start" label="Start location" required />
          {stops.fields.map((stop, index) => (
            <div key={stop.id} className="grid gap-2 rounded-md border p-3">
              <AddressFields form={form} name={`stops.${index}`} label={`Stop ${index + 1}`} />
              <div className="flex justify-end gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move stop ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => stops.move(index, index - 1)}
                >
                  <ArrowUp />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move stop ${index + 1} down`}
                  disabled={index === stops.fields.length - 1}
                  onClick={() => stops.move(index, index + 1)}
                >
                  <ArrowDown />
                </Button>
                <Button variant="ghost" size="sm" aria-label={`Remove stop ${index + 1}`} onClick={() => stops.remove(index)}>
                  <Trash2 />
                </Button>
              </div>
            </div>
          ))}
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            disabled={stops.fields.length >= MAX_STOPS}
            onClick={() => stops.append({ ...emptyAddress })}
          >
            <Plus /> Add Stop
          </Button>
          {errors.stops?.message ? <p className="text-sm font-medium text-destructive">{errors.stops.message}</p> : null}
          <AddressFields form={form} name="end" label="End location" required />
        </fieldset>
      )}
      <p className="text-sm text-muted-foreground">
        The full address is shown only to the provider you accept; others see the city and state.
      </p>

      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <FormField
          label="Budget ($)"
          required
          error={errors.budget?.message}
          description={errors.budget ? undefined : `Minimum: ${MIN_BUDGET}`}
        >
          <Input type="number" inputMode="decimal" min={MIN_BUDGET_CENTS / 100} step="0.01" placeholder="e.g. 45" {...budget} />
        </FormField>
        {budgetHelper ? <div className="sm:pb-7">{budgetHelper}</div> : null}
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Urgency</legend>
        <Controller
          control={form.control}
          name="urgency"
          render={({ field }) => (
            <RadioGroup value={field.value} onValueChange={(value) => field.onChange(value as Urgency)} className="flex gap-6">
              <div className="flex items-center gap-2">
                <RadioGroupItem id="urgency-standard" value="standard" />
                <Label htmlFor="urgency-standard">Standard</Label>
              </div>
              <div className="flex items-center gap-2">
                <RadioGroupItem id="urgency-urgent" value="urgent" />
                <Label htmlFor="urgency-urgent">Urgent (+15% fee)</Label>
              </div>
            </RadioGroup>
          )}
        />
      </fieldset>

      {values.request ? (
        <RequestFields form={form} values={values} request={values.request} requestTime={requestTime} />
      ) : (
      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">How to find a provider</legend>
        <Controller
          control={form.control}
          name="hiringMode"
          render={({ field }) => (
            <RadioGroup value={field.value} onValueChange={(value) => field.onChange(value as HiringMode)} className="grid gap-3">
              {HIRING_MODE_CHOICES.map((choice) => (
                <div key={choice.value} className="flex items-start gap-2">
                  <RadioGroupItem id={`hiring-${choice.value}`} value={choice.value} aria-describedby={`hiring-${choice.value}-hint`} className="mt-0.5" />
                  <div className="grid gap-0.5">
                    <Label htmlFor={`hiring-${choice.value}`}>{choice.label}</Label>
                    <p id={`hiring-${choice.value}-hint`} className="text-xs text-muted-foreground">{choice.hint}</p>
                  </div>
                </div>
              ))}
            </RadioGroup>
          )}
        />
      </fieldset>
      )}

      {values.request?.time ? null : (
      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Date Needed" description="Optional" error={errors.date?.message}>
          <Input type="date" min={todayInputValue(new Date())} {...form.register("date")} />
        </FormField>
        <FormField label="Time" description="Optional; any time of day" error={errors.time?.message}>
          <Input type="time" {...form.register("time")} />
        </FormField>
      </div>
      )}

      <PriceLines form={values} />
    </div>
  );
}

/**
 * The two choices of a request (docs/product.md, Requesting a provider): how long the provider has
 * to answer, and what happens if they decline or do not answer.
 */
function RequestFields({
  form,
  values,
  request,
  requestTime,
}: {
  form: Form;
  values: PostTaskForm;
  request: RequestChoice;
  requestTime: PostTaskDialogProps["requestTime"];
}) {
  const errors = form.formState.errors.request as ({ message?: string } & { startsAt?: { message?: string } }) | undefined;
  const error = errors?.message;
  const change = (next: Partial<RequestChoice>) => form.setValue("request", { ...request, ...next }, { shouldValidate: true });
  // A booked time answers the request at once: its window and fallback do not apply.
  const booking = request.time?.instant === true;
  return (
    <fieldset className="grid min-w-0 gap-3">
      <legend className="mb-1 text-sm font-medium">Your request to {request.providerName}</legend>
      {requestTime?.({
        providerId: request.providerId,
        providerName: request.providerName,
        durationMinutes: expectedDurationMinutes({ category: values.category, title: values.title, description: values.description }),
        value: request.time?.startsAt ?? null,
        onChange: (time) => {
          change({ time });
          // The chosen time is the date needed: the date and time fields give way to it.
          if (time) {
            form.setValue("date", "");
            form.setValue("time", "");
          }
        },
        error: errors?.startsAt?.message ?? form.formState.errors.date?.message,
      })}
      {booking ? null : (
      <>
      <FormField label="Time to answer" error={error}>
        <Select value={String(request.windowHours)} onValueChange={(hours) => change({ windowHours: Number(hours) })}>
          <SelectTrigger>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {REQUEST_WINDOW_HOURS.map((hours) => (
              <SelectItem key={hours} value={String(hours)}>
                {hours} hours
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      <div className="grid gap-2">
        <p id="request-fallback-label" className="text-sm font-medium">
          If they decline or do not answer
        </p>
        <RadioGroup
          aria-labelledby="request-fallback-label"
          value={request.fallback}
          onValueChange={(fallback) => change({ fallback: fallback as RequestFallback })}
          className="grid gap-2"
        >
          {REQUEST_FALLBACKS.map((fallback) => (
            <div key={fallback} className="flex items-center gap-2">
              <RadioGroupItem id={`request-fallback-${fallback}`} value={fallback} />
              <Label htmlFor={`request-fallback-${fallback}`}>{REQUEST_FALLBACK_LABELS[fallback]}</Label>
            </div>
          ))}
        </RadioGroup>
      </div>
      </>
      )}
    </fieldset>
  );
}

/** What the poster is told once the task is posted: booked at once, requested, or posted. */
function postedToast(task: TaskPrivate): { title: string; description: string } {
  // Only a booking of a free time is claimed the moment it is posted (decision 074).
  if (task.status === "claimed" && task.scheduledDate) {
    return {
      title: "Booked",
      description: `${task.provider?.displayName ?? "Your provider"} is booked for ${formatDateTime(new Date(task.scheduledDate), viewerZone(), { withZone: true })}. Pay ${formatDollarsExact(Math.round(task.totalAmount * 100))} within ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to confirm it.`,
    };
  }
  if (task.status === "requested") return { title: "Request sent", description: `${task.requestedProviderName ?? "The provider"} is asked first; you will hear when they answer.` };
  return { title: "Success", description: "Your task has been posted successfully!" };
}

const viewerZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** The request's chosen time and what choosing it does, with the amount (docs/product.md, Web app: "Confirmations"). */
function requestTimeLines(form: PostTaskForm): [string, string][] {
  const time = form.request?.time;
  if (!form.request || !time) return [];
  const when = formatTimeRange(new Date(time.startsAt), new Date(time.endsAt), viewerZone(), { withZone: true });
  const budget = budgetState(form.budget, form.urgency);
  const total = budget.kind === "valid" ? formatDollarsExact(budget.price.totalCents) : "the total";
  const name = form.request.providerName;
  return [
    ["Time", when],
    [
      "What happens",
      time.instant
        ? `Booked at once: ${name} is yours for this time. You then have ${DEFAULT_PAYMENT_WINDOW_MINUTES} minutes to pay ${total}, held in escrow until the work is done.`
        : `Sent as a request: ${name} has ${form.request.windowHours} hours to accept this time. You pay ${total} once they accept; nothing is charged before.`,
    ],
  ];
}

/** docs/product.md, Offers: first to claim stays the default. */
const HIRING_MODE_CHOICES: readonly { value: HiringMode; label: string; hint: string }[] = [
  { value: "first_to_claim", label: "First to claim", hint: "The first verified provider to claim it gets it, at your budget." },
  { value: "offers", label: "Review offers", hint: "Providers offer a price and a time; you compare them and accept one." },
];

/** Display only: the server prices the task again from the budget and urgency. */
function PriceLines({ form }: { form: PostTaskForm }) {
  const budget = budgetState(form.budget, form.urgency);
  if (budget.kind !== "valid") return null;
  const { price } = budget;
  return (
    <dl className="grid gap-1 rounded-md border bg-muted/40 p-3 text-sm" aria-label="Price">
      <div className="flex justify-between">
        <dt>Budget</dt>
        <dd>{formatDollarsExact(price.budgetCents)}</dd>
      </div>
      {price.urgentFeeCents > 0 && (
        <div className="flex justify-between">
          <dt>Urgent fee (15%)</dt>
          <dd>{formatDollarsExact(price.urgentFeeCents)}</dd>
        </div>
      )}
      <div className="flex justify-between">
        <dt>Service Fee (covers processing)</dt>
        <dd>{formatDollarsExact(price.serviceFeeCents)}</dd>
      </div>
      <div className="flex justify-between border-t pt-1 font-semibold">
        <dt>Total payable</dt>
        <dd>{formatDollarsExact(price.totalCents)}</dd>
      </div>
    </dl>
  );
}

function ReviewStep({ form }: { form: PostTaskForm }) {
  const category = CATEGORIES.find((c) => c.value === form.category)?.label ?? "Not selected";
  const place = (value: AddressValue) => formatPlace(value.address, value.city, value.state) ?? "Not given";
  const when = form.date && form.time ? `${form.date} at ${form.time}` : form.date ? `${form.date} (no time given)` : "Flexible";
  const rows: [string, string][] = [
    ["Title", form.title || "Not given"],
    ["Description", form.description || "Not given"],
    ["Category", category],
  ];
  if (form.mode === "single") rows.push(["Location", place(form.location)]);
  else {
    rows.push(["Start", place(form.start)]);
    form.stops.forEach((stop, index) => rows.push([`Stop ${index + 1}`, place(stop)]));
    rows.push(["End", place(form.end)]);
  }
  rows.push(
    ["Urgency", form.urgency === "urgent" ? "Urgent (+15% fee)" : "Standard"],
    [
      "Provider",
      form.request?.time?.instant
        ? `Booked: ${form.request.providerName}`
        : form.request
        ? `Requested: ${form.request.providerName}, who has ${form.request.windowHours} hours to answer; then ${REQUEST_FALLBACK_LABELS[form.request.fallback].toLowerCase()}`
        : (HIRING_MODE_CHOICES.find((c) => c.value === form.hiringMode)?.label ?? "First to claim"),
    ],
    ...(form.request?.time ? requestTimeLines(form) : [["Date needed", when] as [string, string]]),
  );
  return (
    <div className="grid gap-4">
      <dl className="grid gap-2 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="grid grid-cols-[8rem_1fr] gap-2">
            <dt className="font-medium">{label}</dt>
            <dd className="break-words whitespace-pre-line text-muted-foreground">{value}</dd>
          </div>
        ))}
      </dl>
      <PriceLines form={form} />
    </div>
  );
}
