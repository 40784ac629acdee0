import { ChevronDown, ChevronUp } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

// On mobile (docs/product.md#web-app), up/down buttons appear when there is more than one screenful; each step
// is 90% of the viewport height, smooth.
//
// They float over the page, so they must not hide what cannot be scrolled out from under them
// (issue 41: at 390 px they covered the end of pages): each shows only where it can move the page
// (no Up at the top, no Down at the bottom), a spacer as tall as they are ends the page so its last
// line scrolls clear of them, and they step aside while a field is being typed in, when the
// keyboard leaves little room and the field or its button is often where they sit.
const STEP = 0.9;

interface Place {
  scrollable: boolean;
  atTop: boolean;
  atBottom: boolean;
  typing: boolean;
}

const NOWHERE: Place = { scrollable: false, atTop: true, atBottom: true, typing: false };

/** A control a person types into: the on-screen keyboard is up while it has focus. */
function isTypingTarget(element: Element | null): boolean {
  if (!(element instanceof HTMLElement)) return false;
  if (element.isContentEditable || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file", "image"].includes(element.type);
}

function measure(): Place {
  const height = document.documentElement.scrollHeight;
  const bottom = window.scrollY + window.innerHeight;
  return {
    scrollable: height > window.innerHeight + 1,
    atTop: window.scrollY <= 1,
    atBottom: bottom >= height - 1,
    typing: isTypingTarget(document.activeElement),
  };
}

const same = (a: Place, b: Place) => a.scrollable === b.scrollable && a.atTop === b.atTop && a.atBottom === b.atBottom && a.typing === b.typing;

export function MobileScrollButtons() {
  const [place, setPlace] = useState<Place>(NOWHERE);

  useEffect(() => {
    const update = () => {
      const next = measure();
      setPlace((current) => (same(current, next) ? current : next));
    };
    update();
    const observer = new ResizeObserver(update);
    observer.observe(document.body);
    window.addEventListener("resize", update);
    window.addEventListener("scroll", update, { passive: true });
    document.addEventListener("focusin", update);
    document.addEventListener("focusout", update);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", update);
      window.removeEventListener("scroll", update);
      document.removeEventListener("focusin", update);
      document.removeEventListener("focusout", update);
    };
  }, []);

  if (!place.scrollable) return null;
  const step = (direction: 1 | -1) => window.scrollBy({ top: direction * window.innerHeight * STEP, behavior: "smooth" });
  return (
    <>
      {/* As tall as the buttons and their margin: at the end of the page nothing is left beneath them. */}
      <div aria-hidden="true" data-testid="scroll-buttons-spacer" className="h-16 bg-muted/40 md:hidden" />
      {place.typing ? null : (
        <div className="fixed bottom-4 right-4 z-30 flex flex-col gap-2 md:hidden">
          {place.atTop ? null : (
            <Button size="icon" variant="secondary" className="shadow-md" aria-label="Scroll up" onClick={() => step(-1)}>
              <ChevronUp />
            </Button>
          )}
          {place.atBottom ? null : (
            <Button size="icon" variant="secondary" className="shadow-md" aria-label="Scroll down" onClick={() => step(1)}>
              <ChevronDown />
            </Button>
          )}
        </div>
      )}
    </>
  );
}
