// No stray moves: a click is taken only on a control that was where the pointer found it.
// Answers come back in 0.01-0.2 s, so the second click of a double click (or a click a
// moment late) would land on whatever the new table put under the pointer: another question's
// control, or the same spot meaning something else. Every control that acts carries
// `data-act`, what it does ("BUY:Silver", "confirm:41"); after each drawing the page notes
// where each one stands, and since when. A pointer's click on a control is held (dropped,
// with a flash) unless the control has stood there meaning the same for SETTLE_MS, or the
// pointer travelled after it was put there (the player aimed at it, even back to the same
// spot). Keys are never held: a key
// names its control.
export const SETTLE_MS = 500;
const JITTER_PX = 12;   // a hand's drift between the two clicks of a double click

interface Placed { x: number; y: number; w: number; h: number; at: number;
  travel: number; }

export class Steady {
  private placed = new Map<string, Placed>();
  private px = NaN;   // the pointer, where it was last seen
  private py = NaN;
  private travel = 0;   // how far it has moved since the page opened, in px
  private readonly onPointer = (e: PointerEvent) => {
    if (!Number.isNaN(this.px)) this.travel += Math.hypot(e.clientX - this.px, e.clientY - this.py);
    this.px = e.clientX;
    this.py = e.clientY;
  };
  private readonly onClick = (e: MouseEvent) => {
    const el = (e.target as Element | null)?.closest?.("[data-act]") as HTMLElement | null;
    if (!el || this.meant(el, e)) return;
    e.stopImmediatePropagation();
    e.preventDefault();
    el.classList.remove("held");
    void el.offsetWidth;   // restart the flash
    el.classList.add("held");
  };

  constructor() {
    window.addEventListener("pointermove", this.onPointer, { capture: true, passive: true });
    window.addEventListener("pointerdown", this.onPointer, { capture: true, passive: true });
    window.addEventListener("click", this.onClick, { capture: true });
  }

  stop(): void {
    window.removeEventListener("pointermove", this.onPointer, { capture: true });
    window.removeEventListener("pointerdown", this.onPointer, { capture: true });
    window.removeEventListener("click", this.onClick, { capture: true });
  }

  /** After a drawing: where each acting control under ``root`` stands. A control with the
   * same meaning in the same place keeps the time it was first put there. */
  note(root: ParentNode): void {
    const now = performance.now();
    const next = new Map<string, Placed>();
    for (const el of root.querySelectorAll<HTMLElement>("[data-act]")) {
      const r = el.getBoundingClientRect();
      // Not shown: never settled. A closed popup's button keeps a box (a closed <details>
      // hides its content with content-visibility), so its box alone does not say so; noted
      // there, it would count as settled the instant the popup opened, when a click comes
      // before the popup's "toggle" (input runs before other tasks).
      if ((r.width === 0 && r.height === 0) || !el.checkVisibility()) continue;
      const x = r.left + window.scrollX;
      const y = r.top + window.scrollY;
      const act = el.dataset.act as string;
      const old = this.placed.get(act);
      const same = old && Math.abs(old.x - x) < 1 && Math.abs(old.y - y) < 1 &&
        Math.abs(old.w - r.width) < 1 && Math.abs(old.h - r.height) < 1;
      next.set(act, same ? old : { x, y, w: r.width, h: r.height, at: now,
        travel: this.travel });
    }
    this.placed = next;
  }

  /** Whether a click on ``el`` is the player's: by a key, on a control that stood still long
   * enough, or one the pointer moved to. */
  meant(el: HTMLElement, e: MouseEvent): boolean {
    if (e.detail === 0) return true;   // Enter, Space or one of the page's keys
    const placed = this.placed.get(el.dataset.act as string);
    if (!placed) return false;   // drawn this instant, not yet noted
    if (performance.now() - placed.at >= SETTLE_MS) return true;
    const travel = this.travel + (Number.isNaN(this.px) ? 0
      : Math.hypot(e.clientX - this.px, e.clientY - this.py));   // to the click itself
    return travel - placed.travel > JITTER_PX;
  }
}
