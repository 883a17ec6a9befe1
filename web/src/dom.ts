// A small helper to build DOM nodes: h("div", {class: "x", onclick: f}, child, ...).
// Text children are text nodes (never HTML), so names and messages cannot inject markup.

type Child = Node | string | number | null | undefined | false | Child[];
type Props = Record<string, unknown>;

export function h(tag: string, props: Props = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      el.addEventListener(key.slice(2), value as EventListener);
    } else if (key === "class") {
      el.className = String(value);
    } else if (value === true) {
      el.setAttribute(key, "");
    } else {
      el.setAttribute(key, String(value));
    }
  }
  append(el, children);
  return el;
}

function append(el: HTMLElement, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (child instanceof Node) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

export function replace(el: HTMLElement, ...children: Child[]): void {
  el.replaceChildren();
  append(el, children);
}

/** Card names with counts: ["Copper", "Copper", "Estate"] -> "2 × Copper, Estate". */
export function counted(cards: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const c of cards) counts.set(c, (counts.get(c) || 0) + 1);
  return [...counts].map(([c, n]) => (n > 1 ? `${n} × ${c}` : c)).join(", ");
}

/** A control with its key: shown as a badge (hidden from screen readers, which read
 * aria-keyshortcuts instead). */
export function withKey(el: HTMLElement, key?: string): HTMLElement {
  if (!key) return el;
  el.dataset.key = key;
  el.setAttribute("aria-keyshortcuts", key);
  el.prepend(h("kbd", { "aria-hidden": "true" }, key));
  return el;
}
