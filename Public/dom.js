// A tiny element builder. Text goes in as textContent, never as markup.
export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text != null) node.textContent = text;
  return node;
}

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/// Waits for a CSS transition's length, or not at all when motion is reduced.
export const afterMotion = (fn, ms = 350) => setTimeout(fn, reducedMotion() ? 0 : ms);
