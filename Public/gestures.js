// Pointer gestures on a table: swipe-to-delete and drag-to-reorder, by touch or mouse.
import { cellButton, el } from "./dom.js";
import { ROW_HEIGHT as H, cellState } from "./cell.js";
import { EDITING_STYLE } from "./wire.js";

const SWIPE_SLOP = 8;
const SWIPE_OPEN = 80; // the Delete button's width
const EDGE = 48; // auto-scroll zone at the top and bottom while reordering

export function attachGestures(view) {
  view.scroller.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    view.suppressClick = false;
    const node = e.target.closest(".cell");
    if (view.openSwipe && node !== view.openSwipe.node) {
      view.closeSwipe(); // a tap elsewhere only closes the open row
      view.suppressClick = true;
      return;
    }
    const row = node && cellState.get(node).row;
    if (!row) return;
    if (e.target.closest(".reorder")) return reorder(view, node, e);
    if (!view.screen.editing && view.screen.editable && row.editing === EDITING_STYLE.delete) swipe(view, node, e);
  });
}

function track(onMove, onUp) {
  const up = (e) => {
    removeEventListener("pointermove", onMove);
    removeEventListener("pointerup", up);
    removeEventListener("pointercancel", up);
    onUp(e);
  };
  addEventListener("pointermove", onMove);
  addEventListener("pointerup", up);
  addEventListener("pointercancel", up);
}

function addSwipeActions(node) {
  if (!node.querySelector(".swipe-actions")) {
    node.insertBefore(el("div", "swipe-actions"), node.querySelector(".content")).appendChild(cellButton(null, null, "Delete"));
  }
}

/// A cell refilled while swiped open (its row or its neighbours changed) stays open.
export function keepSwipeOpen(node) {
  addSwipeActions(node);
  node.querySelector(".content").style.transform = `translateX(${-SWIPE_OPEN}px)`;
}

function swipe(view, node, down) {
  const content = node.querySelector(".content");
  const base = view.openSwipe?.node === node ? -SWIPE_OPEN : 0;
  const width = node.clientWidth;
  let swiping = false;
  let dx = base;
  track((e) => {
    const mx = e.clientX - down.clientX;
    const my = e.clientY - down.clientY;
    if (!swiping) {
      if (Math.abs(mx) < SWIPE_SLOP || Math.abs(mx) < Math.abs(my)) return;
      swiping = true;
      node.setPointerCapture(down.pointerId);
      addSwipeActions(node);
      content.style.transition = "none";
    }
    dx = Math.min(0, base + mx);
    content.style.transform = `translateX(${dx}px)`;
  }, () => {
    if (!swiping) return;
    view.suppressClick = true;
    content.style.transition = "";
    if (-dx > width * 0.6) {
      content.style.transform = `translateX(${-width}px)`;
      view.openSwipe = null;
      view.actions.remove([cellState.get(node).row.id]);
    } else if (-dx > SWIPE_OPEN / 2) {
      content.style.transform = `translateX(${-SWIPE_OPEN}px)`;
      view.openSwipe = { node };
    } else {
      view.openSwipe = { node };
      view.closeSwipe();
    }
  });
}

/// Drags a row by its handle, within its section or into another, as moveRowAt:to: allows.
/// `drag.to` is the row's index in section `drag.ts` once it has moved.
function reorder(view, node, down) {
  down.preventDefault();
  const sc = view.scroller;
  const secs = view.screen.sections;
  const state = cellState.get(node);
  const [s, from] = state.pos;
  // Where each section's rows start with the dragged row taken out: the slots it can take.
  const tops = secs.map((sec, k) => view.sectionEls.get(sec.id).rows.offsetTop - (k > s ? H : 0));
  const room = (k) => secs[k].rows.length - (k === s);
  const last = secs.length - 1;
  const start = tops[s] + from * H - down.clientY - sc.scrollTop;
  // Sections came or went, or the row did, while it was held: the drop is called off.
  const gone = () => view.screen.sections !== secs || secs.length !== tops.length || !node.isConnected;
  let y = down.clientY;
  const drag = (view.drag = { id: state.key, s, from, ts: s, to: from, tops });
  state.fx.add("dragging");
  node.classList.add("dragging");
  node.setPointerCapture(down.pointerId);
  const update = () => {
    if (gone()) return;
    const top = Math.max(tops[0], Math.min(tops[last] + room(last) * H, start + y + sc.scrollTop));
    let best = Infinity;
    tops.forEach((t, k) => {
      const i = Math.max(0, Math.min(room(k), Math.round((top - t) / H)));
      const d = Math.abs(t + i * H - top);
      if (d < best) [best, drag.ts, drag.to] = [d, k, i];
    });
    view.render();
    node.style.transform = `translateY(${top - (node.parentNode?.parentNode?.offsetTop ?? 0)}px)`;
  };
  let frame = requestAnimationFrame(function autoScroll() {
    const r = sc.getBoundingClientRect();
    const v = y < r.top + EDGE ? y - r.top - EDGE : y > r.bottom - EDGE ? y - r.bottom + EDGE : 0;
    if (v) sc.scrollTop += v / 3;
    update(); // also while the sections around the gap resize
    frame = requestAnimationFrame(autoScroll);
  });
  track((e) => {
    y = e.clientY;
    update();
  }, () => {
    cancelAnimationFrame(frame);
    state.fx.delete("dragging");
    node.classList.remove("dragging");
    view.suppressClick = true;
    const { ts, to } = drag;
    const rows = gone() ? null : secs[ts].rows.filter((r) => r?.id !== drag.id);
    const after = to > 0 ? rows?.[to - 1] : null; // the row that will precede it
    if (!rows || (ts === s && to === from) || (to > 0 && !after)) {
      view.drag = null;
      return view.render();
    }
    drag.dropped = true;
    view.render();
    view.actions.move(state.row, secs[ts].id, after?.id ?? null);
    setTimeout(() => {
      if (view.drag !== drag) return;
      view.drag = null;
      view.render();
    }, 2000);
  });
}
