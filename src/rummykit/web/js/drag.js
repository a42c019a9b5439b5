// Drag and drop with pointer events: the mouse, a finger and a pen alike.
//
// A card calls pointerDown(event, payload). Until the pointer has moved a few pixels it is a
// tap (the card's own click handler selects it); then a copy of the card (or of every
// selected card) follows the pointer, the drop target under it lights up, and on release
// onDrop(payload, target, index) is called: target is the data-drop value of the element
// under the pointer ("meld:3", "new", "hand", "pile", ...), index the place among that
// target's [data-slot] children before which the cards go. Cards set touch-action: none, so
// that a finger drags rather than scrolls.

let drag = null;
let onDropHandler = null;

export function setDropHandler(handler) {
  onDropHandler = handler;
}

export function dragging() {
  return drag !== null && drag.moved;
}

export function pointerDown(event, payload) {
  if (event.button !== undefined && event.button !== 0) return;
  if (drag) return;
  drag = {
    payload,
    id: event.pointerId,
    x0: event.clientX,
    y0: event.clientY,
    source: event.currentTarget,
    moved: false,
    ghost: null,
    target: null,
    index: null,
    touch: event.pointerType === "touch",
  };
  document.addEventListener("pointermove", move, { passive: false });
  document.addEventListener("pointerup", up);
  document.addEventListener("pointercancel", cancel);
}

function move(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const dx = event.clientX - drag.x0;
  const dy = event.clientY - drag.y0;
  if (!drag.moved) {
    if (Math.hypot(dx, dy) < (drag.touch ? 10 : 6)) return;
    drag.moved = true;
    drag.ghost = makeGhost(drag);
    document.body.classList.add("is-dragging");
  }
  event.preventDefault();
  drag.ghost.style.transform = `translate(${event.clientX - drag.offsetX}px, ${event.clientY - drag.offsetY}px)`;
  locate(event.clientX, event.clientY);
}

function makeGhost(d) {
  const ghost = document.createElement("div");
  ghost.className = "drag-ghost";
  const sources = d.payload.elements ? d.payload.elements() : [d.source];
  for (const el of sources) {
    if (!el) continue;
    const copy = el.cloneNode(true);
    copy.removeAttribute("id");
    copy.classList.remove("selected");
    ghost.appendChild(copy);
  }
  const rect = d.source.getBoundingClientRect();
  d.offsetX = d.x0 - rect.left;
  d.offsetY = d.y0 - rect.top;
  ghost.style.transform = `translate(${rect.left}px, ${rect.top}px)`;
  document.body.appendChild(ghost);
  for (const el of sources) if (el) el.classList.add("drag-source");
  d.sources = sources;
  return ghost;
}

function locate(x, y) {
  const under = document.elementFromPoint(x, y);
  const target = under ? under.closest("[data-drop]") : null;
  if (drag.target !== target) {
    if (drag.target) drag.target.classList.remove("drop-here");
    if (target) target.classList.add("drop-here");
    drag.target = target;
  }
  drag.index = target ? slotIndex(target, x, y) : null;
}

/** Where among the target's [data-slot] children the pointer is: the index to insert at. */
function slotIndex(target, x, y) {
  const slots = [...target.querySelectorAll("[data-slot]")].filter(
    (el) => el.closest("[data-drop]") === target && !el.classList.contains("drag-source"),
  );
  if (!slots.length) return 0;
  let best = null;
  let bestDistance = Infinity;
  slots.forEach((el, i) => {
    const r = el.getBoundingClientRect();
    const cx = Math.max(r.left, Math.min(x, r.right));
    const cy = Math.max(r.top, Math.min(y, r.bottom));
    const distance = Math.hypot(x - cx, (y - cy) * 2);
    if (distance < bestDistance) {
      bestDistance = distance;
      best = { i, r };
    }
  });
  const place = Number(slots[best.i].dataset.slot);
  return x < best.r.left + best.r.width / 2 ? place : place + 1;
}

function finish() {
  document.removeEventListener("pointermove", move);
  document.removeEventListener("pointerup", up);
  document.removeEventListener("pointercancel", cancel);
  document.body.classList.remove("is-dragging");
  if (drag && drag.ghost) drag.ghost.remove();
  if (drag && drag.sources) for (const el of drag.sources) if (el) el.classList.remove("drag-source");
  if (drag && drag.target) drag.target.classList.remove("drop-here");
}

function up(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const d = drag;
  if (d.moved) locate(event.clientX, event.clientY);
  finish();
  drag = null;
  if (!d.moved) return; // a tap: the click handler has it
  swallowClick();
  if (d.target && onDropHandler) onDropHandler(d.payload, d.target.dataset.drop, d.index);
}

function cancel(event) {
  if (!drag || event.pointerId !== drag.id) return;
  finish();
  drag = null;
}

/** After a drag the browser may still send a click to the card: it is not a tap. */
function swallowClick() {
  const stop = (event) => {
    event.stopPropagation();
    event.preventDefault();
  };
  window.addEventListener("click", stop, { capture: true, once: true });
  setTimeout(() => window.removeEventListener("click", stop, { capture: true }), 60);
}
