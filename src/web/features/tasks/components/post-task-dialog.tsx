import { ArrowDown, ArrowUp, Plus, Trash2 } from "lucide-react";
import { useState, type ReactNode } from "react";
import { CATEGORIES, MIN_BUDGET_CENTS, type Category, type Urgency } from "@shared/constants";
import type { FelixContext } from "@shared/felix";
import { formatDollars, formatDollarsExact } from "@shared/money";
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
import { useUser } from "@/lib/current-user";
import { errorMessage, goToLogin, isUnauthorizedError } from "@/lib/api";
import { useCreateTask } from "../api/create-task";
import { AddressAutocomplete } from "./address-autocomplete";
import {
  addressFromSuggestion,
  addressFromTyping,
  budgetState,
  buildCreateTaskBody,
  emptyAddress,
  emptyPostTaskForm,
  felixContextOf,
  moveStop,
  todayInputValue,
  type AddressValue,
  type PostTaskForm,
} from "./post-task-form";

export interface BudgetHelperSlot {
  /** The task as typed so far, in Felix's context shape. */
  context: FelixContext;
  /** Sets the budget field (dollars). */
  applyBudget: (dollars: number) => void;
}

export interface PostTaskDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** Rendered beside the budget field: the app puts "Ask Felix" here. */
  budgetHelper?: (slot: BudgetHelperSlot) => ReactNode;
}

const STEP_TITLES = ["Task Details", "Location & Budget", "Review"] as const;
const MIN_BUDGET = formatDollars(MIN_BUDGET_CENTS);
const LOGIN_REDIRECT_DELAY_MS = 500;

let stopCounter = 0;
const nextStopKey = () => `stop-${++stopCounter}`;

/** Spec §2 Post a Task dialog: three steps, Back/Next, Post Task ('Posting...' while pending). */
export function PostTaskDialog({ open, onOpenChange, budgetHelper }: PostTaskDialogProps) {
  const [step, setStep] = useState(1);
  const [form, setForm] = useState<PostTaskForm>(emptyPostTaskForm);
  const { isAuthenticated } = useUser();
  const createTask = useCreateTask();

  const update = <K extends keyof PostTaskForm>(key: K, value: PostTaskForm[K]) =>
    setForm((current) => ({ ...current, [key]: value }));
  const budget = budgetState(form.budget, form.urgency);
  const budgetValid = budget.kind === "valid";

  const post = () => {
    if (!isAuthenticated) {
      toast({ title: "Sign in required", description: "Please sign in to post a task", variant: "destructive" });
      goToLogin();
      return;
    }
    if (budget.kind !== "valid") return;
    createTask.mutate(buildCreateTaskBody(form, budget.dollars), {
      onSuccess: () => {
        toast({ title: "Success", description: "Your task has been posted successfully!" });
        onOpenChange(false);
        setStep(1);
        setForm(emptyPostTaskForm());
      },
      onError: (error) => {
        if (isUnauthorizedError(error)) {
          toast({ title: "Unauthorized", description: "You are logged out. Logging in again...", variant: "destructive" });
          window.setTimeout(() => {
            window.location.href = "/api/login";
          }, LOGIN_REDIRECT_DELAY_MS);
          return;
        }
        toast({
          title: "Error",
          description: errorMessage(error, "Failed to post task. Please try again."),
          variant: "destructive",
        });
      },
    });
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="sm:max-w-2xl">
        <DialogHeader>
          <DialogTitle>Post a Task</DialogTitle>
          <DialogDescription>
            Step {step} of 3: {STEP_TITLES[step - 1]}
          </DialogDescription>
        </DialogHeader>

        {step === 1 && <DetailsStep form={form} update={update} />}
        {step === 2 && (
          <LocationBudgetStep
            form={form}
            setForm={setForm}
            update={update}
            budgetHelper={budgetHelper?.({
              context: felixContextOf(form),
              applyBudget: (dollars) => update("budget", String(dollars)),
            })}
          />
        )}
        {step === 3 && <ReviewStep form={form} />}

        <DialogFooter>
          {step > 1 && (
            <Button variant="outline" onClick={() => setStep(step - 1)} disabled={createTask.isPending}>
              Back
            </Button>
          )}
          {step < 3 ? (
            <Button onClick={() => setStep(step + 1)} disabled={step === 2 && !budgetValid}>
              Next
            </Button>
          ) : (
            <Button onClick={post} disabled={createTask.isPending || !budgetValid}>
              {createTask.isPending ? "Posting..." : "Post Task"}
            </Button>
          )}
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

type Update = <K extends keyof PostTaskForm>(key: K, value: PostTaskForm[K]) => void;

function DetailsStep({ form, update }: { form: PostTaskForm; update: Update }) {
  return (
    <div className="grid gap-4">
      <FormField label="Task Title">
        <Input
          value={form.title}
          placeholder="e.g. Pick up groceries"
          maxLength={120}
          onChange={(event) => update("title", event.target.value)}
        />
      </FormField>
      <FormField label="Description">
        <Textarea
          value={form.description}
          rows={4}
          placeholder="Describe what needs to be done"
          onChange={(event) => update("description", event.target.value)}
        />
      </FormField>
      <FormField label="Category">
        {(control) => (
          <Select value={form.category} onValueChange={(value) => update("category", value as Category)}>
            <SelectTrigger {...control}>
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
      </FormField>
    </div>
  );
}

interface AddressFieldsProps {
  label: string;
  value: AddressValue;
  onChange: (value: AddressValue) => void;
  required?: boolean;
}

/** An address with autocomplete; a pick fills city and state, which stay editable. */
function AddressFields({ label, value, onChange, required = false }: AddressFieldsProps) {
  return (
    <div className="grid gap-3 sm:grid-cols-[1fr_10rem_5rem]">
      <AddressAutocomplete
        label={label}
        required={required}
        value={value.address}
        placeholder="Start typing an address or town"
        onChange={(text) => onChange(addressFromTyping(value, text))}
        onSelect={(result) => onChange(addressFromSuggestion(result))}
      />
      <FormField label={`${label} city`} labelClassName="sr-only sm:not-sr-only">
        <Input value={value.city} placeholder="City" onChange={(event) => onChange({ ...value, city: event.target.value })} />
      </FormField>
      <FormField label={`${label} state`} labelClassName="sr-only sm:not-sr-only">
        <Input
          value={value.state}
          placeholder="MD"
          maxLength={2}
          onChange={(event) => onChange({ ...value, state: event.target.value.toUpperCase() })}
        />
      </FormField>
    </div>
  );
}

interface LocationBudgetStepProps {
  form: PostTaskForm;
  setForm: (updater: (current: PostTaskForm) => PostTaskForm) => void;
  update: Update;
  budgetHelper: ReactNode;
}

function LocationBudgetStep({ form, setForm, update, budgetHelper }: LocationBudgetStepProps) {
  const budget = budgetState(form.budget, form.urgency);
  const budgetError =
    budget.kind === "below_min" ? `Minimum budget is ${MIN_BUDGET}` : budget.kind === "invalid" ? budget.message : null;
  const setStops = (change: (stops: PostTaskForm["stops"]) => PostTaskForm["stops"]) =>
    setForm((current) => ({ ...current, stops: change(current.stops) }));

  return (
    <div className="grid gap-5">
      <div className="flex items-center gap-3">
        <Switch
          id="route-mode"
          checked={form.mode === "route"}
          onCheckedChange={(checked) => update("mode", checked ? "route" : "single")}
        />
        <Label htmlFor="route-mode">Multi-stop route</Label>
      </div>

      {form.mode === "single" ? (
        <AddressFields label="Location" required value={form.location} onChange={(value) => update("location", value)} />
      ) : (
        <fieldset className="grid gap-4">
          <legend className="sr-only">Route</legend>
          <AddressFields label="Start location" required value={form.start} onChange={(value) => update("start", value)} />
          {form.stops.map((stop, index) => (
            <div key={stop.key} className="grid gap-2 rounded-md border p-3">
              <AddressFields
                label={`Stop ${index + 1}`}
                value={stop}
                onChange={(value) =>
                  setStops((stops) => stops.map((s) => (s.key === stop.key ? { ...value, key: stop.key } : s)))
                }
              />
              <div className="flex justify-end gap-1">
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move stop ${index + 1} up`}
                  disabled={index === 0}
                  onClick={() => setStops((stops) => moveStop(stops, index, -1))}
                >
                  <ArrowUp />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Move stop ${index + 1} down`}
                  disabled={index === form.stops.length - 1}
                  onClick={() => setStops((stops) => moveStop(stops, index, 1))}
                >
                  <ArrowDown />
                </Button>
                <Button
                  variant="ghost"
                  size="sm"
                  aria-label={`Remove stop ${index + 1}`}
                  onClick={() => setStops((stops) => stops.filter((s) => s.key !== stop.key))}
                >
                  <Trash2 />
                </Button>
              </div>
            </div>
          ))}
          <Button
            variant="outline"
            size="sm"
            className="justify-self-start"
            onClick={() => setStops((stops) => [...stops, { ...emptyAddress, key: nextStopKey() }])}
          >
            <Plus /> Add Stop
          </Button>
          <AddressFields label="End location" required value={form.end} onChange={(value) => update("end", value)} />
        </fieldset>
      )}
      <p className="text-sm text-muted-foreground">
        The full address is shown only to the provider you accept; others see the city and state.
      </p>

      <div className="grid gap-3 sm:grid-cols-[1fr_auto] sm:items-end">
        <FormField
          label="Budget ($)"
          required
          error={budgetError}
          description={budgetError ? undefined : `Minimum: ${MIN_BUDGET}`}
        >
          <Input
            type="number"
            inputMode="decimal"
            min={MIN_BUDGET_CENTS / 100}
            step="0.01"
            placeholder="20"
            value={form.budget}
            onChange={(event) => update("budget", event.target.value)}
          />
        </FormField>
        {budgetHelper ? <div className="sm:pb-7">{budgetHelper}</div> : null}
      </div>

      <fieldset className="grid gap-2">
        <legend className="mb-2 text-sm font-medium">Urgency</legend>
        <RadioGroup value={form.urgency} onValueChange={(value) => update("urgency", value as Urgency)} className="flex gap-6">
          <div className="flex items-center gap-2">
            <RadioGroupItem id="urgency-standard" value="standard" />
            <Label htmlFor="urgency-standard">Standard</Label>
          </div>
          <div className="flex items-center gap-2">
            <RadioGroupItem id="urgency-urgent" value="urgent" />
            <Label htmlFor="urgency-urgent">Urgent (+15% fee)</Label>
          </div>
        </RadioGroup>
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <FormField label="Date Needed" description="Optional">
          <Input
            type="date"
            min={todayInputValue(new Date())}
            value={form.date}
            onChange={(event) => update("date", event.target.value)}
          />
        </FormField>
        <FormField label="Time" description="Optional">
          <Input type="time" value={form.time} onChange={(event) => update("time", event.target.value)} />
        </FormField>
      </div>

      <PriceLines form={form} />
    </div>
  );
}

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
  const place = (value: AddressValue) =>
    [value.address, [value.city, value.state].filter(Boolean).join(", ")].filter(Boolean).join(" · ") || "Not given";
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
  rows.push(["Urgency", form.urgency === "urgent" ? "Urgent (+15% fee)" : "Standard"], ["Date needed", when]);
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
