// @ts-check
// What the page received and could not use — a frame that is not a JSON message, a diff or
// screen that does not apply — is said in the console with the reason and the frame's
// type, never dropped in silence. The lines are also kept in `window.tablewebWarnings`,
// where the tests read them in every engine.

/** @type {string[]} */
const said = [];
window.tablewebWarnings = said;

/** Logs `what` happened to a frame of type `type`, and why.
 * @param {string} what @param {string} type @param {unknown} reason */
export function warnFrame(what, type, reason) {
	const line = `tableweb: ${what} (frame type ${type}): ${reason}`;
	said.push(line);
	console.warn(line);
}
