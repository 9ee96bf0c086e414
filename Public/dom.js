// @ts-check
// A tiny element builder. Text goes in as textContent, never as markup.
export function el(tag, className, text) {
	const node = document.createElement(tag);
	if (className) node.className = className;
	if (text != null) node.textContent = text;
	return node;
}

/// A button inside a cell: the row takes the focus, so the button does not.
export function cellButton(className, label, text) {
	const b = el("button", className, text);
	b.type = "button";
	b.tabIndex = -1;
	if (label) b.setAttribute("aria-label", label);
	return b;
}

export const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/// Waits for a CSS transition's length, or not at all when motion is reduced.
export const afterMotion = (fn, ms = 350) => setTimeout(fn, reducedMotion() ? 0 : ms);
