-- Every instance closes a deleted session's sockets at once: whatever deletes a session (sign-out,
-- sign out everywhere, a password change, account deletion, the expiry sweep) tells them through
-- LISTEN/NOTIFY, so no code path can forget to (docs/decisions/010-chat-fanout-and-notifications.md).
CREATE OR REPLACE FUNCTION sessions_notify_ended() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('session_ended', OLD.id::text);
  RETURN OLD;
END;
$$;--> statement-breakpoint
DROP TRIGGER IF EXISTS sessions_notify_ended ON sessions;--> statement-breakpoint
CREATE TRIGGER sessions_notify_ended AFTER DELETE ON sessions
  FOR EACH ROW EXECUTE FUNCTION sessions_notify_ended();
