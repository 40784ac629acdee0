import type { OutgoingMail } from "../../adapters/mail/mailer.js";

// The words of the account e-mails. Each carries the link the person needs next; in development
// the outbox mailer logs those links too (docs/product.md, Accounts: recovery and verification).

type Mail = Omit<OutgoingMail, "to">;

export function passwordResetMail(publicUrl: string, token: string): Mail {
  return {
    kind: "account_password_reset",
    subject: "Reset your Errandly password",
    text: [
      "Someone (hopefully you) asked to reset the password of your Errandly account.",
      "",
      `Choose a new password here (the link works for 60 minutes, once): ${publicUrl}/reset-password?token=${token}`,
      "",
      "If you did not ask, ignore this e-mail: your password stays as it is.",
    ].join("\n"),
  };
}

export function singleSignOnResetMail(publicUrl: string): Mail {
  return {
    kind: "account_password_reset",
    subject: "Signing in to Errandly",
    text: [
      "Someone (hopefully you) asked to reset the password of your Errandly account.",
      "",
      "Your account signs in with single sign-on and has no Errandly password to reset.",
      `Sign in with the "single sign-on" button here: ${publicUrl}/sign-in`,
    ].join("\n"),
  };
}

export function passwordChangedMail(publicUrl: string): Mail {
  return {
    kind: "account_password_changed",
    subject: "Your Errandly password was changed",
    text: [
      "The password of your Errandly account was just changed, and every other device was signed out.",
      "",
      `If this wasn't you, reset your password now: ${publicUrl}/forgot-password`,
    ].join("\n"),
  };
}

export function verifyEmailMail(publicUrl: string, token: string): Mail {
  return {
    kind: "account_verify_email",
    subject: "Confirm your e-mail address for Errandly",
    text: [
      "Welcome to Errandly. Open this link to confirm your e-mail address and sign in (it works for 24 hours, once):",
      `${publicUrl}/verify-email?token=${token}`,
      "",
      "If you did not sign up, ignore this e-mail: no account is used without this link or its password.",
    ].join("\n"),
  };
}

export function signUpAttemptMail(publicUrl: string, verifyToken: string | null): Mail {
  return {
    kind: "account_sign_up_attempt",
    subject: "Someone tried to sign up with your address",
    text: [
      "Someone (maybe you) just tried to create an Errandly account with this e-mail address, which already has one.",
      "",
      `Sign in: ${publicUrl}/sign-in`,
      `Forgot your password? Reset it: ${publicUrl}/forgot-password`,
      ...(verifyToken
        ? [
            "",
            "Nobody has confirmed this address yet. If you just signed up, open this link to confirm it: the password you just chose becomes the account's, and anyone else signed in to it is signed out.",
            `${publicUrl}/verify-email?token=${verifyToken}`,
          ]
        : []),
      "",
      "If it wasn't you, you can ignore this e-mail: nothing changed.",
    ].join("\n"),
  };
}

export function changeEmailMail(publicUrl: string, token: string): Mail {
  return {
    kind: "account_change_email",
    subject: "Confirm your new e-mail address for Errandly",
    text: [
      "Open this link to make this the e-mail address of your Errandly account (it works for 24 hours, once):",
      `${publicUrl}/verify-email?token=${token}`,
      "",
      "If you did not ask for this, ignore this e-mail: nothing changes without the link.",
    ].join("\n"),
  };
}

export function emailChangingNoticeMail(publicUrl: string, newEmail: string): Mail {
  return {
    kind: "account_change_email",
    subject: "Your Errandly e-mail address is being changed",
    text: [
      `Someone signed in to your Errandly account asked to change its e-mail address to ${newEmail}.`,
      "The change happens only when the link sent to that address is opened.",
      "",
      `If this wasn't you, reset your password now: ${publicUrl}/forgot-password`,
    ].join("\n"),
  };
}

export function factorsResetMail(publicUrl: string): Mail {
  return {
    kind: "account_factors_reset",
    subject: "The second factors of your Errandly account were reset",
    text: [
      "An Errandly admin removed the authenticator app, passkeys and recovery codes of your account, as you asked.",
      "You now sign in with your password alone.",
      "",
      `Add a second factor again in Settings, under Security: ${publicUrl}/settings/security`,
      `If you did not ask for this, reset your password now and write to us: ${publicUrl}/forgot-password`,
    ].join("\n"),
  };
}
