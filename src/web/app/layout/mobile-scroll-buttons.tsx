import { ChevronDown, ChevronUp } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";

// On mobile (docs/product.md#web-app), up/down buttons appear when there is more than one screenful; each step
// is 90% of the viewport height, smooth.
const STEP = 0.9;

export function MobileScrollButtons() {
  const [scrollable, setScrollable] = useState(false);

  useEffect(() => {
    const measure = () => setScrollable(document.documentElement.scrollHeight > window.innerHeight + 1);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    window.addEventListener("resize", measure);
    return () => {
      observer.disconnect();
      window.removeEventListener("resize", measure);
    };
  }, []);

  if (!scrollable) return null;
  const step = (direction: 1 | -1) => window.scrollBy({ top: direction * window.innerHeight * STEP, behavior: "smooth" });
  return (
    <div className="fixed bottom-4 right-4 z-30 flex flex-col gap-2 md:hidden">
      <Button size="icon" variant="secondary" className="shadow-md" aria-label="Scroll up" onClick={() => step(-1)}>
        <ChevronUp />
      </Button>
      <Button size="icon" variant="secondary" className="shadow-md" aria-label="Scroll down" onClick={() => step(1)}>
        <ChevronDown />
      </Button>
    </div>
  );
}
