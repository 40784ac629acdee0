import { OFFICE } from "@shared/constants";
import { LegalPage, type LegalSection } from "@/features/site/components/legal-page";

const SECTIONS: LegalSection[] = [
  {
    id: "data-we-collect",
    title: "Information we collect",
    body: (
      <>
        <p>We collect only what we need to run the marketplace:</p>
        <ul>
          <li>Account details: your name, e-mail address, password (stored only as a one-way hash) and role.</li>
          <li>Task details: titles, descriptions, categories, budgets, dates, addresses and route stops you enter.</li>
          <li>Messages you exchange with the other party of a task, and the reviews and ratings you give.</li>
          <li>
            Provider applications: full name, contact details, address, services offered, availability, bio, a
            government-issued identification document and a profile photo.
          </li>
          <li>Payment records: amounts, fees, escrow and payout status. Card numbers are entered with our payment processor and never reach our servers.</li>
          <li>Messages and appointment requests you send through our contact and appointment forms.</li>
          <li>Technical data: IP addresses and request logs kept for security and abuse prevention.</li>
        </ul>
      </>
    ),
  },
  {
    id: "how-we-use",
    title: "How we use your information",
    body: (
      <ul>
        <li>To run tasks: showing tasks to nearby providers, matching, chat, notifications and reviews.</li>
        <li>To hold payments in escrow, pay providers and handle refunds.</li>
        <li>To verify providers&apos; identity and eligibility before they can claim tasks.</li>
        <li>To answer your questions and appointment requests.</li>
        <li>To keep the service secure, prevent fraud and enforce our Terms of Service.</li>
      </ul>
    ),
  },
  {
    id: "sharing",
    title: "Who we share it with",
    body: (
      <>
        <p>We do not sell your personal information. We share it only:</p>
        <ul>
          <li>With the other party of a task: a provider who accepts your task sees its full address; you see your provider&apos;s name, photo and rating.</li>
          <li>With our payment processor, to take payments, hold funds and send payouts. Its own privacy policy applies to the card and bank details you give it.</li>
          <li>With service providers who host our systems or send our e-mail, under contracts that limit their use of the data.</li>
          <li>When the law requires it, or to protect the safety of our users.</li>
        </ul>
      </>
    ),
  },
  {
    id: "id-documents",
    title: "Identification documents and retention",
    body: (
      <>
        <p>
          Identification documents are used only to verify a provider application. They are stored privately, are visible only to our
          verification team, and are never shown to customers.
        </p>
        <p>
          We keep an ID document while your provider account is active and for up to 90 days after an application is rejected or an account
          is closed, unless the law requires us to keep it longer. Task, payment and ledger records are kept for seven years for tax and
          accounting purposes. Contact messages and appointment requests are deleted two years after they are received or after the visit.
        </p>
      </>
    ),
  },
  {
    id: "cookies",
    title: "Cookies",
    body: (
      <p>
        We use a single session cookie to keep you signed in. It is strictly necessary, is not readable by scripts, and is deleted when you
        sign out or the session expires. We use no advertising or third-party tracking cookies. Your theme choice (light or dark) is stored
        in your browser&apos;s local storage and never sent to us.
      </p>
    ),
  },
  {
    id: "security",
    title: "Security",
    body: (
      <p>
        Connections are encrypted, passwords are hashed, and access to personal data is limited to the staff who need it. No system is
        perfectly secure; if we learn of a breach affecting your data we will notify you as the law requires.
      </p>
    ),
  },
  {
    id: "your-rights",
    title: "Your choices and rights",
    body: (
      <p>
        You can view and update your account details at any time in Settings, where you can also download your data and delete your
        account (see below). You may also ask us to correct or delete your data by writing to {OFFICE.supportEmail}. Some records must be kept after deletion where the law requires (for example payment records).
        The service is not intended for anyone under 18.
      </p>
    ),
  },
  {
    id: "your-account",
    title: "Downloading your data and deleting your account",
    body: (
      <>
        <p>
          In Settings, under Privacy, &quot;Download my data&quot; gives you a file with everything we keep about you: your profile, provider
          application (we only say whether an ID document is on file), tasks you posted or did, the messages you wrote, reviews given and
          received, payments, tips, payouts and ledger entries about you, notifications, e-mail settings, the devices you are signed in on and
          the audit entries about you. It contains nothing private about anyone else.
        </p>
        <p>&quot;Delete my account&quot; asks for your password. It is not possible while one of your tasks is in progress, money for a task is
          held in escrow, a payment is being processed, or you have earnings that are not paid out yet. When you delete your account:</p>
        <ul>
          <li>Your name becomes &quot;Deleted user&quot;; your e-mail address, password, photo, ID document and provider details are erased.</li>
          <li>You are signed out on every device; your open tasks are cancelled; your notifications and e-mail settings are deleted.</li>
          <li>
            Records other people rely on stay: finished tasks, chat messages in their conversations, payments, payouts and our ledger (which
            the law requires us to keep), and the ratings of your reviews (their comments are removed). They show &quot;Deleted user&quot;.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: "changes",
    title: "Changes to this policy",
    body: <p>If we change this policy we will update the date above and, for significant changes, tell you by e-mail or in the app before they take effect.</p>,
  },
  {
    id: "contact",
    title: "Contact",
    body: (
      <p>
        Errandly, {OFFICE.address}. E-mail {OFFICE.supportEmail} or call {OFFICE.phone}.
      </p>
    ),
  },
];

export default function PrivacyPage() {
  return (
    <LegalPage
      title="Privacy Policy"
      updated="2026-11-24"
      intro={
        <p>
          This policy explains what information Errandly collects when you use our errand and task marketplace in the United States, how we
          use it, and the choices you have.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
