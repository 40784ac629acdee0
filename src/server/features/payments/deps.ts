import type { PaymentGateway } from "../../adapters/payments/gateway.js";
import type { AppContext } from "../../context.js";

/** What every payments use case needs: the app's context and the card processor. */
export interface PaymentsDeps {
  ctx: AppContext;
  gateway: PaymentGateway;
}
