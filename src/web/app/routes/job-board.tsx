import { LayoutGrid, Map as MapIcon, Search, X } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { useLocation, useSearchParams } from "wouter";
import { CATEGORIES, categoryLabel } from "@shared/constants";
import type { TaskPublic } from "@shared/tasks";
import { Alert, AlertDescription } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { LoadingRegion } from "@/components/ui/skeleton";
import { AskFelixButton } from "@/features/felix/components/ask-felix-button";
import { useBlocks } from "@/features/moderation/api/blocks";
import { useProviderProfile } from "@/features/providers/api/get-provider-profile";
import { useDeclinedTasks } from "@/features/tasks/api/get-declined-tasks";
import { uniqueTasks, useOpenTasks } from "@/features/tasks/api/get-open-tasks";
import { useRadiusCounts } from "@/features/tasks/api/get-radius-counts";
import { LazyBoardMap } from "@/features/tasks/components/lazy-maps";
import {
  boardHides,
  boardPageParams,
  boardView,
  filterChips,
  hasBoardFilters,
  noMatchMessage,
  withoutChip,
  writeBoardFilters,
  type BoardFilterValues,
  type BoardSort,
} from "@/features/tasks/components/board-filters";
import { FilterPanel } from "@/features/tasks/components/filter-panel";
import { CreateAlertFromFilters } from "@/features/job-alerts/components/create-alert-from-filters";
import { JobCard, JobCardSkeleton } from "@/features/tasks/components/job-card";
import { taskActionButtons } from "@/features/tasks/components/task-actions";
import { taskFelixContext } from "@/features/tasks/components/task-format";
import { useTaskActions } from "@/features/tasks/hooks/use-task-actions";
import { useTaskViewer } from "@/features/tasks/hooks/use-task-viewer";
import { errorMessage } from "@/lib/api";
import { cn } from "@/lib/cn";
import { useRenderTime } from "@/lib/hydration";

const SEARCH_DEBOUNCE_MS = 300;

/**
 * The job board (/jobs and /job-board; docs/product.md#tasks and #job-board-filters): search,
 * category, place, budget, date and sort, all in the URL, so Back, reload and shared links keep them.
 */
export default function JobBoardPage() {
  const [params, setParams] = useSearchParams();
  const [, navigate] = useLocation();
  const boardParams = boardPageParams(params);
  const { search, category, sort, ...filters } = boardParams;
  const [searchText, setSearchText] = useState(search);
  const view = boardView(params);
  const setView = (next: "list" | "map") =>
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next === "map") updated.set("view", "map");
      else updated.delete("view");
      return updated;
    });
  const { viewer } = useTaskViewer();
  // "Near me" falls back to the provider's ZIP code when the browser gives no position.
  const profile = useProviderProfile(viewer?.role === "provider" || viewer?.role === "both");
  const fallbackZip = /^\d{5}/.exec(profile.data?.zipCode ?? "")?.[0] ?? null;
  const tasks = useOpenTasks(boardParams, view === "list");
  // Tasks whose poster declined this provider are not theirs to claim (decision 024).
  const declined = useDeclinedTasks(viewer?.role === "provider" || viewer?.role === "both");
  // Nor does anyone see the tasks of a person they blocked (docs/product.md, Moderation): the board
  // is one answer for everyone (decision 035), so the browser leaves them out, as declined ones.
  const blocks = useBlocks(viewer !== null);
  const hidden = useMemo(() => boardHides(declined, (blocks.data ?? []).map((person) => person.userId)), [declined, blocks.data]);
  const list = uniqueTasks(tasks.data?.pages ?? []).filter((task) => !hidden(task));
  const empty = view === "list" && !tasks.isLoading && !tasks.isError && list.length === 0;
  const counts = useRadiusCounts(boardParams, empty && filters.radiusMiles !== undefined);
  const { run, pending } = useTaskActions();

  // Choosing a category (docs/product.md#tasks) sets the URL to /job-board?category={value} (also from /jobs).
  const setParam = (key: string, value: string | undefined) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    const query = next.toString();
    navigate(query ? `/job-board?${query}` : "/job-board");
  };

  // Applying filters is one history entry, so Back returns to the board as it was before.
  const applyFilters = (values: BoardFilterValues, nextSort: BoardSort) => {
    const next = writeBoardFilters(params, values);
    if (nextSort === "newest") next.delete("sort");
    else next.set("sort", nextSort);
    const query = next.toString();
    navigate(query ? `/job-board?${query}` : "/job-board");
  };

  // The URL follows the search box after a pause, so each keystroke is not a request.
  useEffect(() => {
    const wanted = searchText.trim();
    if (wanted === search) return;
    const timer = window.setTimeout(
      () =>
        setParams(
          (current) => {
            const next = new URLSearchParams(current);
            if (wanted) next.set("search", wanted);
            else next.delete("search");
            return next;
          },
          { replace: true },
        ),
      SEARCH_DEBOUNCE_MS,
    );
    return () => window.clearTimeout(timer);
  }, [searchText, search, setParams]);

  const now = useRenderTime();
  const isProvider = viewer?.role === "provider" || viewer?.role === "both";
  const chips = filterChips(filters);

  const card = (task: TaskPublic) => {
    // Claim is offered where the shared table lets this viewer claim (or sends a visitor to sign in).
    const claim = taskActionButtons(task, viewer, now).find((b) => b.name === "claim" && b.enabled);
    return (
      <JobCard
        key={task.id}
        task={task}
        claim={claim}
        showEarnings={isProvider && task.userId !== viewer?.id}
        claiming={pending?.id === task.id}
        now={now}
        onClaim={() => {
          if (claim) run(task.id, claim);
        }}
        evaluate={isProvider && task.userId !== viewer?.id ? <AskFelixButton mode="evaluate" size="sm" context={taskFelixContext(task)} /> : undefined}
      />
    );
  };

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6">
      <h1 className="text-3xl font-bold tracking-tight">Job Board</h1>
      <p className="mt-1 text-muted-foreground">Browse open tasks near you and claim the ones that fit.</p>

      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        <div className="relative flex-1">
          <Search className="absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground" aria-hidden="true" />
          <Input
            type="search"
            aria-label="Search tasks"
            placeholder="Search tasks..."
            className="pl-9"
            value={searchText}
            onChange={(event) => setSearchText(event.target.value)}
          />
        </div>
        <div className="flex gap-2">
          <FilterPanel values={filters} sort={sort} fallbackZip={fallbackZip} onApply={applyFilters} />
          <div className="flex rounded-md border" role="group" aria-label="View">
            <Button variant={view === "list" ? "secondary" : "ghost"} aria-pressed={view === "list"} onClick={() => setView("list")}>
              <LayoutGrid aria-hidden="true" /> List
            </Button>
            <Button variant={view === "map" ? "secondary" : "ghost"} aria-pressed={view === "map"} onClick={() => setView("map")}>
              <MapIcon aria-hidden="true" /> Map
            </Button>
          </div>
        </div>
      </div>

      <div className="mt-4 flex flex-wrap gap-2" role="group" aria-label="Categories">
        <CategoryButton active={!category} onClick={() => setParam("category", undefined)}>
          All Categories
        </CategoryButton>
        {CATEGORIES.map((c) => (
          <CategoryButton key={c.value} active={category === c.value} onClick={() => setParam("category", c.value)}>
            {c.label}
          </CategoryButton>
        ))}
      </div>

      {chips.length > 0 && (
        <ul className="mt-4 flex flex-wrap items-center gap-2" aria-label="Active filters">
          {chips.map((chip) => (
            <li key={chip.key}>
              <Button
                variant="secondary"
                size="sm"
                className="h-auto min-h-8 rounded-full py-1 whitespace-normal"
                aria-label={`Remove filter: ${chip.label}`}
                onClick={() => applyFilters(withoutChip(filters, chip.key), sort === "distance" && chip.key === "near" ? "newest" : sort)}
              >
                {chip.label} <X aria-hidden="true" />
              </Button>
            </li>
          ))}
          <li>
            <Button variant="link" size="sm" onClick={() => applyFilters({}, sort === "distance" ? "newest" : sort)}>
              Clear filters
            </Button>
          </li>
        </ul>
      )}

      {isProvider && <CreateAlertFromFilters category={category} {...filters} />}
      {category && (
        <Alert role="status" variant="info" className="mt-4 flex items-center justify-between gap-3">
          <AlertDescription>
            Showing tasks in <strong>{categoryLabel(category)}</strong>
          </AlertDescription>
          <Button variant="outline" size="sm" onClick={() => setParam("category", undefined)}>
            <X aria-hidden="true" /> Clear Filter
          </Button>
        </Alert>
      )}

      <section aria-label="Open tasks" className="mt-6">
        {view === "map" ? (
          <LazyBoardMap
            params={boardParams}
            // The map's area replaces a place and its radius (the distance sort needs a place).
            onSearchArea={(bbox) => applyFilters({ ...withoutChip(filters, "near"), bbox }, sort === "distance" ? "newest" : sort)}
            renderCard={card}
            hidden={hidden}
            emptyMessage={hasBoardFilters(filters) ? noMatchMessage(filters, undefined) : "No tasks available"}
          />
        ) : tasks.isLoading ? (
          <LoadingRegion label="Loading tasks..." className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {[0, 1, 2, 3, 4, 5].map((n) => (
              <JobCardSkeleton key={n} />
            ))}
          </LoadingRegion>
        ) : tasks.isError ? (
          <Alert role="alert" variant="destructive">
            <AlertDescription>{errorMessage(tasks.error, "Failed to load tasks. Please try again.")}</AlertDescription>
          </Alert>
        ) : list.length === 0 ? (
          <p role="status" className="py-16 text-center text-muted-foreground">
            {hasBoardFilters(filters)
              ? filters.radiusMiles !== undefined && counts.isPending
                ? "No tasks found. Checking nearby..."
                : noMatchMessage(filters, counts.data?.counts)
              : "No tasks available"}
          </p>
        ) : (
          <div className={cn("grid gap-4 sm:grid-cols-2 lg:grid-cols-3", tasks.isPlaceholderData && "opacity-70")}>
            {list.map(card)}
          </div>
        )}
        {view === "list" && tasks.hasNextPage && (
          <div className="mt-6 flex justify-center">
            <Button variant="outline" onClick={() => void tasks.fetchNextPage()} disabled={tasks.isFetchingNextPage}>
              {tasks.isFetchingNextPage ? "Loading..." : "Load More Tasks"}
            </Button>
          </div>
        )}
      </section>
    </div>
  );
}

function CategoryButton({ active, onClick, children }: { active: boolean; onClick: () => void; children: string }) {
  return (
    <Button variant={active ? "default" : "outline"} size="sm" aria-pressed={active} className="rounded-full" onClick={onClick}>
      {children}
    </Button>
  );
}
