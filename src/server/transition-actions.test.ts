import { describe, expect, it } from "vitest";
import { TASK_PROCESS } from "../shared/task-lifecycle.js";
import { useTestApp } from "../../test/create-test-app.js";
import { ActionRegistry, assertActionsHandled, taskActionRegistry } from "./transition-actions.js";

// The start-up check of the transition tables' actions (docs/decisions/045-transitions-name-their-actions.md).

const t = await useTestApp();
const named = TASK_PROCESS.flatMap((step) => step.actions);
const noop = async () => undefined;

describe("assertActionsHandled", () => {
  it("refuses to start while an action of the table has no handler, naming it", () => {
    const registry = taskActionRegistry(named);
    for (const name of new Set(named)) if (name !== "escrow.refund") registry.handle(name, noop);
    expect(() => assertActionsHandled([registry])).toThrow(
      'The server cannot start: the task action "escrow.refund" is named in its table but has no handler.',
    );
  });

  it("refuses to start with a handler for an action no row names, naming it", () => {
    const registry = new ActionRegistry<string, unknown>("money", ["ledger.capture"]);
    registry.handle("ledger.capture", noop);
    registry.handle("ledger.capture_twice", noop);
    expect(() => assertActionsHandled([registry])).toThrow(/a handler is registered for the money action "ledger.capture_twice", which no row of its table names/);
  });

  it("refuses a second handler for the same action", () => {
    const registry = taskActionRegistry(named);
    registry.handle("announce", noop);
    expect(() => registry.handle("announce", noop)).toThrow('The task action "announce" has two handlers; register exactly one.');
  });
});

describe("the built app", () => {
  it("has exactly one handler for every action of the task table", () => {
    expect(t.app.ctx.taskActions.problems()).toEqual({ missing: [], extra: [] });
  });

  it("has exactly one handler for every action of the money table", () => {
    expect(t.app.ctx.moneyActions.problems()).toEqual({ missing: [], extra: [] });
  });
});
