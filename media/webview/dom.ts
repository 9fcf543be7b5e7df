// Tiny DOM builder for the card panel. Card text is untrusted: it only ever becomes a text node
// (createTextNode / textContent). There is no innerHTML, insertAdjacentHTML or attribute taken
// from card data except `value`, `title` and `aria-*`, which the browser treats as text.
export type Child = Node | string | false | null | undefined;

export interface Attrs {
  class?: string;
  id?: string;
  type?: string;
  title?: string;
  disabled?: boolean;
  name?: string;
  value?: string;
  checked?: boolean;
  placeholder?: string;
  role?: string;
  for?: string;
  rows?: number;
  min?: string;
  key?: string; // data-key: identifies an input for focus restore and drafts
  aria?: Record<string, string>;
  on?: Partial<Record<'click' | 'input' | 'change' | 'keydown', (e: Event) => void>>;
}

/**
 * Direction overrides and isolates in untrusted text can make "gnp.exe" read as "exe.png": they
 * are shown as visible marks instead of being obeyed.
 */
export function visibleControls(text: string): string {
  return text.replace(/[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g, (c) => `[U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}

export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  if (attrs.class) el.className = attrs.class;
  if (attrs.id) el.id = attrs.id;
  if (attrs.type) el.setAttribute('type', attrs.type);
  if (attrs.title !== undefined) el.title = attrs.title;
  if (attrs.name) el.setAttribute('name', attrs.name);
  if (attrs.placeholder) el.setAttribute('placeholder', attrs.placeholder);
  if (attrs.role) el.setAttribute('role', attrs.role);
  if (attrs.for) el.setAttribute('for', attrs.for);
  if (attrs.rows) el.setAttribute('rows', String(attrs.rows));
  if (attrs.min) el.setAttribute('min', attrs.min);
  if (attrs.key) el.dataset.key = attrs.key;
  if (attrs.aria) for (const [k, v] of Object.entries(attrs.aria)) el.setAttribute(`aria-${k}`, v);
  if (attrs.disabled) (el as HTMLButtonElement).disabled = true;
  if (attrs.value !== undefined) (el as HTMLInputElement).value = attrs.value;
  if (attrs.checked) (el as HTMLInputElement).checked = true;
  if (attrs.on) for (const [ev, fn] of Object.entries(attrs.on)) if (fn) el.addEventListener(ev, fn);
  for (const c of children) {
    if (c === false || c === null || c === undefined) continue;
    el.appendChild(typeof c === 'string' ? document.createTextNode(visibleControls(c)) : c);
  }
  return el;
}

export function clear(el: HTMLElement): void {
  while (el.firstChild) el.removeChild(el.firstChild);
}
