import { lazy, Suspense, type ComponentType } from "react";
import { Route, Switch } from "wouter";
import { Spinner } from "@/components/ui/spinner";
import { ProtectedRoute } from "./protected-route";

// Every page is its own chunk, so the landing page loads only what it shows (issue #8 budget).
const page = (load: () => Promise<{ default: ComponentType }>) => lazy(load);

const Landing = page(() => import("./routes/landing"));
const HowItWorks = page(() => import("./routes/how-it-works"));
const Services = page(() => import("./routes/services"));
const Pricing = page(() => import("./routes/pricing"));
const Faq = page(() => import("./routes/faq"));
const BecomeProvider = page(() => import("./routes/become-provider"));
const ProviderBenefits = page(() => import("./routes/provider-benefits"));
const Requirements = page(() => import("./routes/requirements"));
const ProviderSupport = page(() => import("./routes/provider-support"));
const JobBoard = page(() => import("./routes/job-board"));
const Providers = page(() => import("./routes/providers"));
const Dashboard = page(() => import("./routes/dashboard"));
const TaskDetail = page(() => import("./routes/task-detail"));
const Admin = page(() => import("./routes/admin"));
const Privacy = page(() => import("./routes/privacy"));
const Terms = page(() => import("./routes/terms"));
const Contact = page(() => import("./routes/contact"));
const BookAppointment = page(() => import("./routes/book-appointment"));
const SignIn = page(() => import("./routes/sign-in"));
const SignInSecondStep = page(() => import("./routes/sign-in-second-step"));
const Earnings = page(() => import("./routes/earnings"));
const Settings = page(() => import("./routes/settings"));
const Goodbye = page(() => import("./routes/goodbye"));
const SandboxOnboarding = page(() => import("./routes/sandbox-onboarding"));
const AdminInbox = page(() => import("./routes/admin-inbox"));
const AdminFinance = page(() => import("./routes/admin-finance"));
const AdminAudit = page(() => import("./routes/admin-audit"));
const AdminOutbox = page(() => import("./routes/admin-outbox"));
const AdminReports = page(() => import("./routes/admin-reports"));
const ProviderProfile = page(() => import("./routes/provider-profile"));
const UserProfile = page(() => import("./routes/user-profile"));
const ForgotPassword = page(() => import("./routes/forgot-password"));
const ResetPassword = page(() => import("./routes/reset-password"));
const VerifyEmail = page(() => import("./routes/verify-email"));
const NotFound = page(() => import("./routes/not-found"));

function PageFallback() {
  return (
    <div className="flex min-h-[50vh] items-center justify-center">
      <Spinner />
    </div>
  );
}

export function Router() {
  return (
    <Suspense fallback={<PageFallback />}>
      <Switch>
        <Route path="/" component={Landing} />
        <Route path="/how-it-works" component={HowItWorks} />
        <Route path="/services" component={Services} />
        <Route path="/pricing" component={Pricing} />
        <Route path="/faq" component={Faq} />
        <Route path="/become-provider">
          <ProtectedRoute>
            <BecomeProvider />
          </ProtectedRoute>
        </Route>
        <Route path="/benefits" component={ProviderBenefits} />
        <Route path="/provider-benefits" component={ProviderBenefits} />
        <Route path="/requirements" component={Requirements} />
        <Route path="/provider-support" component={ProviderSupport} />
        <Route path="/support" component={ProviderSupport} />
        <Route path="/jobs" component={JobBoard} />
        <Route path="/job-board" component={JobBoard} />
        <Route path="/providers" component={Providers} />
        <Route path="/users/:id" component={UserProfile} />
        <Route path="/dashboard">
          <ProtectedRoute signInPrompt={{ title: "Sign In Required", description: "Sign in to see your tasks and jobs." }}>
            <Dashboard />
          </ProtectedRoute>
        </Route>
        <Route path="/task/:id" component={TaskDetail} />
        <Route path="/tasks/:id" component={TaskDetail} />
        <Route path="/admin">
          <ProtectedRoute role="admin">
            <Admin />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/inbox">
          <ProtectedRoute role="admin">
            <AdminInbox />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/finance">
          <ProtectedRoute role="admin">
            <AdminFinance />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/audit">
          <ProtectedRoute role="admin">
            <AdminAudit />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/outbox">
          <ProtectedRoute role="admin">
            <AdminOutbox />
          </ProtectedRoute>
        </Route>
        <Route path="/admin/reports">
          <ProtectedRoute role="admin">
            <AdminReports />
          </ProtectedRoute>
        </Route>
        <Route path="/provider/profile">
          <ProtectedRoute>
            <ProviderProfile />
          </ProtectedRoute>
        </Route>
        <Route path="/privacy" component={Privacy} />
        <Route path="/terms" component={Terms} />
        <Route path="/contact" component={Contact} />
        <Route path="/book-appointment" component={BookAppointment} />
        <Route path="/sign-in" component={SignIn} />
        <Route path="/sign-in/second-step" component={SignInSecondStep} />
        <Route path="/forgot-password" component={ForgotPassword} />
        <Route path="/reset-password" component={ResetPassword} />
        <Route path="/verify-email" component={VerifyEmail} />
        <Route path="/earnings">
          <ProtectedRoute>
            <Earnings />
          </ProtectedRoute>
        </Route>
        {/* /settings/notifications keeps working: e-mails link to it. */}
        <Route path="/settings/:tab?">
          <ProtectedRoute signInPrompt={{ title: "Settings", description: "Sign in to change your name, photo, e-mail, password and notifications." }}>
            <Settings />
          </ProtectedRoute>
        </Route>
        <Route path="/goodbye" component={Goodbye} />
        <Route path="/payouts/sandbox-onboarding">
          <ProtectedRoute>
            <SandboxOnboarding />
          </ProtectedRoute>
        </Route>
        <Route component={NotFound} />
      </Switch>
    </Suspense>
  );
}
