import { Slot } from "@radix-ui/react-slot";
import * as React from "react";

import { Label } from "@/components/ui/label";
import { cn } from "@/lib/cn";

/** Attributes that tie a control to its field's label, hint and error. */
export type FormFieldControlProps = {
  id: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
  "aria-required"?: true;
};

export type FormFieldMeta = {
  /** For controls a <label for> cannot name (e.g. a RadioGroup): pass as `aria-labelledby`. */
  labelId: string;
};

export type FormFieldProps = {
  label: React.ReactNode;
  /** Id of the control; generated when omitted. Do not also set `id` on the child. */
  id?: string;
  required?: boolean;
  /** Optional hint shown under the control and announced with it. */
  description?: React.ReactNode;
  /** Validation message; when present the control is marked aria-invalid. */
  error?: React.ReactNode;
  className?: string;
  labelClassName?: string;
  /**
   * Either a single control element, which receives the wiring props, or a render function
   * for composites whose focusable part is nested (e.g. put the props on SelectTrigger).
   */
  children: React.ReactElement | ((control: FormFieldControlProps, meta: FormFieldMeta) => React.ReactNode);
};

export function FormField({
  label,
  id,
  required = false,
  description,
  error,
  className,
  labelClassName,
  children,
}: FormFieldProps) {
  const generatedId = React.useId();
  const controlId = id ?? `field-${generatedId}`;
  const labelId = `${controlId}-label`;
  const descriptionId = `${controlId}-description`;
  const errorId = `${controlId}-error`;
  const hasDescription = description != null && description !== false && description !== "";
  const hasError = error != null && error !== false && error !== "";

  // Only reference elements that are rendered, or screen readers get a dangling description.
  const describedBy = [hasDescription ? descriptionId : null, hasError ? errorId : null]
    .filter((part): part is string => part !== null)
    .join(" ");

  const controlProps: FormFieldControlProps = { id: controlId };
  if (describedBy) controlProps["aria-describedby"] = describedBy;
  if (hasError) controlProps["aria-invalid"] = true;
  if (required) controlProps["aria-required"] = true;

  return (
    <div className={cn("grid gap-2", className)}>
      <Label id={labelId} htmlFor={controlId} className={labelClassName}>
        {label}
        {/* The asterisk is visual only; the control carries aria-required for assistive technology. */}
        {required ? (
          <span aria-hidden="true" className="ml-0.5 text-destructive">
            *
          </span>
        ) : null}
      </Label>
      {typeof children === "function" ? children(controlProps, { labelId }) : <Slot {...controlProps}>{children}</Slot>}
      {hasDescription ? (
        <p id={descriptionId} className="text-sm text-muted-foreground">
          {description}
        </p>
      ) : null}
      {hasError ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </div>
  );
}
