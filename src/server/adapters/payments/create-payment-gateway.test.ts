import { describe, expect, it } from "vitest";
import { parseEnv } from "../../config/env.js";
import { createPaymentGateway } from "./create-payment-gateway.js";

// The sandbox unless all three Stripe keys are set; Stripe's SDK is loaded only then.

const stripeKeys = { STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" };

describe("createPaymentGateway", () => {
  // A partial set of keys never gets here: the env refuses it at boot.
  it("picks the sandbox by default", async () => {
    expect((await createPaymentGateway(parseEnv({}))).name).toBe("sandbox");
  });

  it("picks Stripe with its three keys", async () => {
    const gateway = await createPaymentGateway(parseEnv(stripeKeys));
    expect(gateway.name).toBe("stripe");
    expect(gateway.publishableKey).toBe("pk_test_x");
  });
});
