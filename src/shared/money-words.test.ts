import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { APPROVAL_WINDOW_HOURS, APPROVAL_WINDOW_THRESHOLD_CENTS, PROVIDER_SHARE_PERCENT } from "./constants.js";
import { formatDollars, priceTask } from "./money.js";
import { MONEY_WORDS, paymentReceivedWords } from "./money-words.js";

// The copy about money says what priceTask does (docs/product.md, Money and Fees; issue 27, item 10).

const threshold = formatDollars(APPROVAL_WINDOW_THRESHOLD_CENTS);

describe("the approval window, as the copy words it", () => {
  it("is keyed on the budget: a $100-$117 budget pays the provider under $100 and is still held, as the copy says", () => {
    expect(MONEY_WORDS.release).toContain(`a budget under ${threshold}`);
    expect(MONEY_WORDS.release).toContain(`a budget of ${threshold} or more`);
    expect(MONEY_WORDS.release).toContain(`${APPROVAL_WINDOW_HOURS} hours`);
    expect(MONEY_WORDS.release).not.toMatch(/payouts? (under|of)/i);
    for (const budgetCents of [10_000, 10_850, 11_700]) {
      const price = priceTask(budgetCents, "standard");
      expect(price.providerShareCents).toBeLessThan(APPROVAL_WINDOW_THRESHOLD_CENTS);
      expect(price.needsApprovalWindow).toBe(true);
      expect(paymentReceivedWords(price.totalCents, budgetCents)).toContain(`${APPROVAL_WINDOW_HOURS} hours to approve`);
    }
    // An urgent $90 task's work value passes $100, but its budget does not: released on completion.
    expect(priceTask(9_000, "urgent").needsApprovalWindow).toBe(false);
  });

  it("tells the poster of an $80 task that the money goes to the provider on completion, not on their approval", () => {
    const price = priceTask(8_000, "standard");
    const words = paymentReceivedWords(price.totalCents, 8_000);
    expect(words).toBe("Payment of $86.90 received. We hold it in escrow and release it to the provider when they mark the task complete.");
    expect(words).not.toMatch(/approve/);
  });

  it("says the provider's share includes the urgent surcharge, as priceTask pays it", () => {
    expect(MONEY_WORDS.providerShare).toBe(`${PROVIDER_SHARE_PERCENT}% of the budget plus any urgent surcharge`);
    const urgent = priceTask(10_000, "urgent");
    expect(urgent.providerShareCents).toBe(Math.floor(((10_000 + urgent.urgentFeeCents) * PROVIDER_SHARE_PERCENT) / 100));
  });

  it("tells the provider the poster pays the service fee, not that no fee leaves a share the platform takes part of", () => {
    expect(MONEY_WORDS.providerKeeps).toBe(`You keep ${MONEY_WORDS.providerShare}; the poster pays the service fee on top.`);
    // The task page's earnings line reads it, not its own words.
    const taskInfo = readFileSync("src/web/features/tasks/components/task-info.tsx", "utf8");
    expect(taskInfo).toContain("MONEY_WORDS.providerKeeps");
    expect(taskInfo).not.toMatch(/No service fee is taken/);
  });
});

describe("the pages' copy", () => {
  // Pages that state money, timing or guarantees; each reads MONEY_WORDS instead of writing figures.
  const pages = [
    "src/web/app/routes/terms.tsx",
    "src/web/app/routes/pricing.tsx",
    "src/web/app/routes/faq.tsx",
    "src/web/app/routes/landing.tsx",
    "src/web/app/routes/how-it-works.tsx",
    "src/web/app/routes/provider-benefits.tsx",
    "src/web/app/routes/earnings.tsx",
    "src/web/features/payments/components/task-payment-form.tsx",
    "src/web/features/tasks/components/task-info.tsx",
    "src/web/features/providers/components/application-form.tsx",
  ];
  // The liability cap of the terms is a legal figure, not the release rule.
  const source = (path: string) => readFileSync(path, "utf8").replace("or $100 if greater", "");

  it.each(pages)("%s writes no figure of the money rules by hand and promises nothing the product lacks", (path) => {
    const text = source(path);
    for (const figure of [/\$100\b/, /\$20\b/, /\$0\.50/, /(?<![\d.])85%/, /(?<![\d.])15%/, /(?<![\d.])8%/, /24-hour/, /escrow until you approve/]) {
      expect(text, `${figure} in ${path}`).not.toMatch(figure);
    }
    expect(text).not.toMatch(/money-back/i);
  });

  // The copy may promise background checks because approval needs a clear one
  // (docs/decisions/064-background-checks.md): if the approval stops asking, the promise must go.
  it("promises background checks only while approval needs a clear one", () => {
    const decide = readFileSync("src/server/features/providers/service.ts", "utf8");
    const approveBranch = decide.slice(decide.indexOf('if (decision === "approve") {'));
    expect(approveBranch).toMatch(/findLatestCheck\(tx, userId\)[\s\S]{0,80}check\?\.state !== "clear"/);
    expect(source("src/web/app/routes/landing.tsx")).toMatch(/Identity and background checked/);
  });
});
