// @ts-check
// UIAlertController with a text field: asks for a row's text.
import { el } from "./dom.js";
import { word } from "./words.js";

/// UIAlertController with a message and OK (textContent only); resolves when dismissed.
export function showAlert(title, message) {
	return new Promise((resolve) => {
		const app = document.getElementById("app");
		const back = /** @type {HTMLElement | null} */ (document.activeElement);
		const scrim = app.appendChild(el("div", "scrim"));
		const box = scrim.appendChild(el("div", "alert"));
		box.setAttribute("role", "alertdialog");
		box.setAttribute("aria-modal", "true");
		box.setAttribute("aria-label", title);
		box.appendChild(el("h2", null, title));
		box.appendChild(el("p", null, message));
		const ok = box.appendChild(el("div", "buttons")).appendChild(el("button", null, word("ok")));
		const close = () => {
			scrim.remove();
			back?.focus?.({ preventScroll: true });
			resolve(undefined);
		};
		ok.onclick = close;
		box.addEventListener("keydown", (e) => {
			e.stopPropagation();
			if (e.key !== "Enter" && e.key !== "Escape") return;
			e.preventDefault();
			close();
		});
		ok.focus();
	});
}

/// Resolves to the trimmed text, or null when cancelled or left empty.
export function askForText(title, value, okLabel) {
	return new Promise((resolve) => {
		const app = document.getElementById("app");
		const back = /** @type {HTMLElement | null} */ (document.activeElement);
		const scrim = app.appendChild(el("div", "scrim"));
		const box = scrim.appendChild(el("div", "alert"));
		box.setAttribute("role", "dialog");
		box.setAttribute("aria-modal", "true");
		box.setAttribute("aria-label", title);
		box.appendChild(el("h2", null, title));
		const input = box.appendChild(el("input"));
		input.value = value;
		input.setAttribute("aria-label", title);
		input.maxLength = 1000;
		const buttons = box.appendChild(el("div", "buttons"));
		const cancel = buttons.appendChild(el("button", null, word("cancel")));
		const ok = buttons.appendChild(el("button", null, okLabel));
		const close = (result) => {
			scrim.remove();
			back?.focus?.({ preventScroll: true });
			resolve(result?.trim() || null);
		};
		cancel.onclick = () => close(null);
		ok.onclick = () => close(input.value);
		input.addEventListener("keydown", (e) => {
			e.stopPropagation();
			if (e.key !== "Enter" && e.key !== "Escape") return;
			e.preventDefault(); // else the key would go on to the button focus returns to
			close(e.key === "Enter" ? input.value : null);
		});
		input.focus();
		input.select();
	});
}
