// Access (protocol v1.1): the credential from an access link, who the server says you
// are, and the "Access needed" screen. Everything shown is set with textContent.

const ACCESS_KEY = "tableweb.access";
export const UNAUTHORIZED_CLOSE = 4401;

/// Takes `#access=CREDENTIAL` out of the address bar (it never reached the server: a
/// fragment is not sent) and keeps it in localStorage. Returns the stored credential.
export function takeCredentialFromLink() {
  const match = /^#access=([A-Za-z0-9_-]+)$/.exec(location.hash);
  if (match) {
    try { localStorage.setItem(ACCESS_KEY, match[1]); } catch { /* private mode */ }
    history.replaceState(null, "", location.pathname + location.search);
  }
  return credential();
}

export function credential() {
  try { return localStorage.getItem(ACCESS_KEY); } catch { return null; }
}

/// Shows "name · role" in the corner once welcomed by a server that requires access.
export function showIdentity(user, role) {
  let badge = document.querySelector(".whoami");
  if (!role) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = document.createElement("div");
    badge.className = "whoami";
    document.querySelector("#app").append(badge);
  }
  badge.textContent = user ? `${user} · ${role}` : role;
  badge.title = role === "viewer" ? "You can look but not change anything." : "You can edit.";
}

/// Replaces the page with a screen that says how to get in; nothing reconnects.
export function showAccessNeeded(message) {
  if (document.querySelector(".access-needed")) return;
  const screen = document.createElement("section");
  screen.className = "access-needed";
  screen.setAttribute("role", "alert");
  const title = screen.appendChild(document.createElement("h2"));
  title.textContent = "Access needed";
  const why = screen.appendChild(document.createElement("p"));
  why.textContent = credential()
    ? "The access link this browser used is no longer valid (it may have been revoked)."
    : "This server only shows its tables to people it has given access to.";
  const how = screen.appendChild(document.createElement("p"));
  how.textContent =
    "Ask whoever runs it for an access link (it looks like http://host:port/#access=…) and open it in this browser once.";
  if (message) {
    const detail = screen.appendChild(document.createElement("p"));
    detail.className = "detail";
    detail.textContent = message;
  }
  document.querySelector("#app").append(screen);
  for (const hide of document.querySelectorAll(".loading, .banner")) hide.hidden = true;
}
