// Brings an element into view by scrolling the shell's own scrolling area (.main) only. scrollIntoView also
// scrolls the page itself, which pushed the app's header and status bar out of the window.
export function scrollIntoMain(el: HTMLElement, behavior: ScrollBehavior = 'smooth'): void {
  const area = el.closest<HTMLElement>('.main');
  if (!area) return;
  const top = el.getBoundingClientRect().top - area.getBoundingClientRect().top + area.scrollTop - 8;
  area.scrollTo({ top, behavior });
}
