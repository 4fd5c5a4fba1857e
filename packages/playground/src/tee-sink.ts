/**
 * A tree sink that is two sinks: sluice's `RecordingSink` (the mutation events, as the events view shows
 * them) and `DomTreeSink` (the tree as it stands after each step). The tree builder talks to one sink
 * (HTML §13.2.6 through sluice's `TreeSink`); this one hands every call to both and keeps, per recorded
 * id, the DOM node made for it.
 */
import {
  DomTreeSink,
  RecordingSink,
  type Document,
  type DocumentMode,
  type ElementAttribute,
  type ElementNamespace,
  type Node,
  type RecordedEvent,
  type SourceLocation,
  type TreeSink,
} from 'sluice';

export class TeeSink implements TreeSink<number> {
  readonly document = 0;
  /** The events recorded so far, in order. */
  readonly events: RecordedEvent[] = [];
  private readonly recorder = new RecordingSink({ keepLines: false, onLine: (line) => this.events.push(JSON.parse(line) as RecordedEvent) });
  private readonly dom = new DomTreeSink();
  /** The DOM node for each recorded id (0: the document; template contents under their own id). */
  private readonly nodes: Node[] = [this.dom.document];

  /** The DOM built so far. */
  get tree(): Document {
    return this.dom.document;
  }

  /** The DOM node recorded as `id`. */
  node(id: number): Node | undefined {
    return this.nodes[id];
  }

  createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: SourceLocation | null): number {
    const id = this.recorder.createElement(localName, namespace, attributes, location);
    const element = this.dom.createElement(localName, namespace, attributes, location);
    this.nodes[id] = element;
    const last = this.events[this.events.length - 1];
    if (last?.op === 'createElement' && last.contents !== undefined) this.nodes[last.contents] = this.dom.templateContents(element);
    return id;
  }

  createComment(data: string, location: SourceLocation | null): number {
    const id = this.recorder.createComment(data, location);
    this.nodes[id] = this.dom.createComment(data, location);
    return id;
  }

  createDocumentType(name: string, publicId: string, systemId: string, location: SourceLocation | null): number {
    const id = this.recorder.createDocumentType(name, publicId, systemId, location);
    this.nodes[id] = this.dom.createDocumentType(name, publicId, systemId, location);
    return id;
  }

  insertText(parent: number, data: string, before: number | null, location: SourceLocation | null): void {
    this.recorder.insertText(parent, data, before, location);
    this.dom.insertText(this.nodes[parent], data, before === null ? null : this.nodes[before], location);
  }

  insertBefore(parent: number, node: number, before: number | null): void {
    this.recorder.insertBefore(parent, node, before);
    this.dom.insertBefore(this.nodes[parent], this.nodes[node], before === null ? null : this.nodes[before]);
  }

  remove(node: number): void {
    this.recorder.remove(node);
    this.dom.remove(this.nodes[node]);
  }

  moveChildren(from: number, to: number): void {
    this.recorder.moveChildren(from, to);
    this.dom.moveChildren(this.nodes[from], this.nodes[to]);
  }

  parentNode(node: number): number | null {
    return this.recorder.parentNode(node);
  }

  addMissingAttributes(element: number, attributes: readonly ElementAttribute[]): void {
    this.recorder.addMissingAttributes(element, attributes);
    this.dom.addMissingAttributes(this.nodes[element], attributes);
  }

  setDocumentMode(mode: DocumentMode): void {
    this.recorder.setDocumentMode(mode);
    this.dom.setDocumentMode(mode);
  }

  templateContents(template: number): number {
    return this.recorder.templateContents(template);
  }

  elementPopped(element: number, endLocation: SourceLocation | null): void {
    this.recorder.elementPopped(element, endLocation);
    this.dom.elementPopped?.(this.nodes[element], endLocation);
  }
}
