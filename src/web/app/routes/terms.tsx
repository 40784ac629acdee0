import { OFFICE } from "@shared/constants";
import { MONEY_WORDS } from "@shared/money-words";
import { RECOURSE_WORDS } from "@shared/recourse-words";
import { LegalPage, type LegalSection } from "@/features/site/components/legal-page";

const SECTIONS: LegalSection[] = [
  {
    id: "the-service",
    title: "The service",
    body: (
      <p>
        Errandly is a marketplace that connects people who need errands and tasks done (customers) with independent service providers.
        Errandly is not a party to the agreement between a customer and a provider and does not perform tasks itself. Providers are
        independent contractors, not employees of Errandly. The service is in Early Access: features may change as we improve it.
      </p>
    ),
  },
  {
    id: "accounts",
    title: "Accounts and eligibility",
    body: (
      <ul>
        <li>You must be at least 18 years old and able to enter a binding contract.</li>
        <li>You are responsible for the accuracy of the information you give and for keeping your password secret.</li>
        <li>Providers must pass our verification, including a government-issued ID and a profile photo, before claiming tasks.</li>
      </ul>
    ),
  },
  {
    id: "payments",
    title: "Payments, fees and escrow",
    body: (
      <>
        <p>
          Customers pay the task budget plus a service fee of {MONEY_WORDS.serviceFee} when a provider claims the task. Urgent tasks carry
          a {MONEY_WORDS.urgentSurcharge} surcharge. Payments are processed by our third-party payment processor and held in escrow until the task is
          completed.
        </p>
        <p>
          Providers receive {MONEY_WORDS.providerShare}. {MONEY_WORDS.release} A reported problem holds the money until our team decides
          it. Tips carry no commission. Payouts usually arrive in 2-3 business days.
        </p>
      </>
    ),
  },
  {
    id: "cancellations",
    title: "Cancellations and refunds",
    body: (
      <ul>
        <li>A customer may cancel a task while it is open or claimed and before work has started. {RECOURSE_WORDS.refund}</li>
        <li>If a claimed task is not paid before its payment deadline, it expires and may be reposted.</li>
      </ul>
    ),
  },
  {
    id: "conduct",
    title: "User conduct",
    body: (
      <>
        <p>You agree not to:</p>
        <ul>
          <li>post tasks that are illegal, dangerous, or involve weapons, drugs, or hazardous materials;</li>
          <li>harass, threaten or discriminate against other users;</li>
          <li>arrange payment outside Errandly for a task found on Errandly;</li>
          <li>provide false information, impersonate anyone, or create more than one account to evade a suspension;</li>
          <li>interfere with the service, scrape it, or try to access other users&apos; data.</li>
        </ul>
        <p>We may remove content and suspend or close accounts that break these rules.</p>
      </>
    ),
  },
  {
    id: "disputes",
    title: "Disputes",
    body: (
      <p>
        If something goes wrong with a task, contact the other party through the task chat first. If you cannot resolve it, report a
        problem on the task page or contact our support team at {OFFICE.supportEmail}. {RECOURSE_WORDS.disputes} Our decision on releasing or refunding escrowed funds is final as between you and Errandly, without
        limiting any rights you have against the other party.
      </p>
    ),
  },
  {
    id: "liability",
    title: "Disclaimers and limitation of liability",
    body: (
      <>
        <p>
          The service is provided &quot;as is&quot;. We verify providers&apos; identity but do not guarantee the quality, safety or legality
          of any task or the conduct of any user.
        </p>
        <p>
          To the fullest extent the law allows, Errandly is not liable for indirect, incidental or consequential damages, and our total
          liability for any claim relating to a task is limited to the fees you paid us for that task, or $100 if greater. Nothing in these
          terms limits liability that cannot be limited by law.
        </p>
      </>
    ),
  },
  {
    id: "law",
    title: "Governing law",
    body: (
      <p>
        These terms are governed by the laws of the State of Maryland, without regard to its conflict-of-law rules. Any dispute with
        Errandly will be brought in the state or federal courts located in Maryland, and you consent to their jurisdiction.
      </p>
    ),
  },
  {
    id: "changes",
    title: "Changes to these terms",
    body: <p>We may update these terms. We will change the date above and give notice of significant changes before they take effect; using the service afterwards means you accept them.</p>,
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Errandly, {OFFICE.address}. E-mail {OFFICE.supportEmail} or {OFFICE.businessEmail}, or call {OFFICE.phone}.
      </p>
    ),
  },
];

export default function TermsPage() {
  return (
    <LegalPage
      title="Terms of Service"
      updated="2026-11-21"
      intro={<p>These terms are an agreement between you and Errandly. Please read them before using the service; by using it you accept them.</p>}
      sections={SECTIONS}
    />
  );
}
