import { useCallback, useState } from "react";
import { notificationPreview } from "@shared/chat-text";

// Browser notifications (docs/product.md#chat-and-notifications): the opt-in prompt's dismissal lasts for the browser session; an incoming
// message is shown for 5 s with an 800 Hz beep of 0.2 s.

const DISMISSED_KEY = "errandly:chat-notifications-dismissed";
const SHOW_MS = 5000;
const BEEP_HZ = 800;
const BEEP_SECONDS = 0.2;

function supported(): boolean {
  return typeof window !== "undefined" && "Notification" in window;
}

function beep(): void {
  try {
    const audio = new AudioContext();
    const oscillator = audio.createOscillator();
    const gain = audio.createGain();
    oscillator.frequency.value = BEEP_HZ;
    gain.gain.value = 0.1;
    oscillator.connect(gain);
    gain.connect(audio.destination);
    oscillator.start();
    oscillator.stop(audio.currentTime + BEEP_SECONDS);
    oscillator.onended = () => void audio.close();
  } catch {
    // No audio (autoplay policy, no device): the notification alone will do.
  }
}

export function useBrowserNotifications() {
  const [permission, setPermission] = useState<NotificationPermission | "unsupported">(() =>
    supported() ? Notification.permission : "unsupported",
  );
  // The task page is also rendered on the server (docs/decisions/036-server-rendered-data-pages.md),
  // which has no storage; the prompt shows only to the chat's parties, never in that HTML.
  const [dismissed, setDismissed] = useState(() => typeof sessionStorage !== "undefined" && sessionStorage.getItem(DISMISSED_KEY) === "1");

  const enable = useCallback(async () => {
    if (!supported()) return;
    setPermission(await Notification.requestPermission());
  }, []);

  const dismiss = useCallback(() => {
    sessionStorage.setItem(DISMISSED_KEY, "1");
    setDismissed(true);
  }, []);

  const notify = useCallback((title: string, content: string) => {
    if (!supported() || Notification.permission !== "granted") return;
    const notification = new Notification(title, { body: notificationPreview(content) });
    setTimeout(() => notification.close(), SHOW_MS);
    beep();
  }, []);

  return { showPrompt: permission === "default" && !dismissed, enable, dismiss, notify };
}
