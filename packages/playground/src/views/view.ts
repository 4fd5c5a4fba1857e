import type { Model } from '../model.js';

/** A tab of the page. `render` is called when the tab is shown and whenever the input or options change while it is. */
export interface View {
  readonly id: string;
  readonly title: string;
  readonly element: HTMLElement;
  render(model: Model): void;
}
