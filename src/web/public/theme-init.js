// Runs before first paint (a blocking script in <head>, external so the CSP needs no inline
// exception): applies the stored theme, light by default.
try {
  if (localStorage.getItem("theme") === "dark") document.documentElement.classList.add("dark");
} catch {
  // Storage can be unavailable (privacy mode); light theme then.
}
