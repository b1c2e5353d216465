// Small DOM helpers: build elements in code, format numbers the way the CLI prints them.

export type Child = Node | string | number | null | undefined | false;
type Handler = (event: Event) => void;
export type Attrs = Record<string, string | number | boolean | Handler | Record<string, string> | null | undefined>;

/** An element with attributes (`on*` functions become listeners; `class`, `dataset`, `text`). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') {
      element.addEventListener(key.slice(2).toLowerCase(), value);
    } else if (key === 'class') {
      element.className = String(value);
    } else if (key === 'text') {
      element.textContent = String(value);
    } else if (key === 'dataset' && typeof value === 'object') {
      Object.assign(element.dataset, value);
    } else if (key === 'value' && 'value' in element) {
      (element as HTMLInputElement).value = String(value);
    } else if (key === 'checked' && 'checked' in element) {
      (element as HTMLInputElement).checked = Boolean(value);
    } else {
      element.setAttribute(key, value === true ? '' : String(value));
    }
  }
  append(element, ...children);
  return element;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replace every child of `parent`. */
export function fill(parent: Node, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, ...children);
}

/** A number as the CLI prints points: at most 2 decimals, no trailing zeros. */
export function points(value: number): string {
  return String(Math.round(value * 100) / 100);
}

/** `{metal: 3, ore: 1}` as `3 metal, 1 ore` (or `none`). */
export function materials(bag: Record<string, number>): string {
  const parts = Object.entries(bag).filter(([, units]) => units).map(([name, units]) => `${points(units)} ${name}`);
  return parts.length ? parts.join(', ') : 'none';
}

/** A score source (`buildings.charger`) as a reader wants it (`charger`). */
export function sourceName(source: string): string {
  return source.slice(source.indexOf('.') + 1);
}

export function labelled(label: string, control: HTMLElement, hint?: string): HTMLLabelElement {
  return h('label', { class: 'field' }, h('span', { class: 'field-label', text: label }), control, hint ? h('small', { text: hint }) : null);
}
