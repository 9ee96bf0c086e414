// Pointer gestures on a table: swipe-to-delete and drag-to-reorder, by touch or mouse.
import { cellButton, el } from "./dom.js";
import { ROW_HEIGHT as H } from "./cell.js";

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
    if (!node?._row) return;
    if (e.target.closest(".reorder")) return reorder(view, node, e);
    if (!view.screen.editing && view.screen.editable && node._row.editing === "delete") swipe(view, node, e);
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
      if (!node.querySelector(".swipe-actions")) {
        const actions = node.insertBefore(el("div", "swipe-actions"), content);
        actions.appendChild(cellButton(null, null, "Delete"));
      }
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
      view.actions.remove([node._row.id]);
    } else if (-dx > SWIPE_OPEN / 2) {
      content.style.transform = `translateX(${-SWIPE_OPEN}px)`;
      view.openSwipe = { node };
    } else {
      view.openSwipe = { node };
      view.closeSwipe();
    }
  });
}

function reorder(view, node, down) {
  down.preventDefault();
  const sc = view.scroller;
  const [s, from] = node._pos;
  const sec = view.screen.sections[s];
  const n = sec.rows.length;
  const startScroll = sc.scrollTop;
  let y = down.clientY;
  const drag = (view.drag = { id: node._key, s, from, to: from });
  node._fx.add("dragging");
  node.classList.add("dragging");
  node.setPointerCapture(down.pointerId);
  const update = () => {
    const top = Math.max(0, Math.min((n - 1) * H, from * H + y - down.clientY + sc.scrollTop - startScroll));
    node.style.transform = `translateY(${top}px)`;
    drag.to = Math.round(top / H);
    view.render();
  };
  let frame = requestAnimationFrame(function autoScroll() {
    const r = sc.getBoundingClientRect();
    const v = y < r.top + EDGE ? y - r.top - EDGE : y > r.bottom - EDGE ? y - r.bottom + EDGE : 0;
    if (v) {
      sc.scrollTop += v / 3;
      update();
    }
    frame = requestAnimationFrame(autoScroll);
  });
  track((e) => {
    y = e.clientY;
    update();
  }, () => {
    cancelAnimationFrame(frame);
    node._fx.delete("dragging");
    node.classList.remove("dragging");
    view.suppressClick = true;
    const to = drag.to;
    // The row that will precede it once it has moved.
    const after = to === 0 ? null : sec.rows[to > from ? to : to - 1];
    if (to === from || after === undefined || (to > 0 && !after)) {
      view.drag = null;
      return view.render();
    }
    drag.dropped = true;
    view.render();
    view.actions.move(node._row, sec.id, after?.id ?? null);
    setTimeout(() => {
      if (view.drag !== drag) return;
      view.drag = null;
      view.render();
    }, 2000);
  });
}
