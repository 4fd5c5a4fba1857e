/**
 * `RecordingSink`: a `TreeSink<number>` that writes every mutation event as a line of JSON, and
 * `replayRecording`, which plays such lines into any other sink.
 */
import { NS } from '@sluice/tree-builder';
import type {
  DocumentMode,
  ElementAttribute,
  ElementNamespace,
  SourceLocation,
  TreeSink,
} from '@sluice/tree-builder';

/**
 * An attribute as recorded: `{"name","value"}` for an attribute in no namespace (its local name is its
 * name); the full `{"name","value","namespace","prefix","localName"}` for a namespaced one.
 */
export type RecordedAttribute =
  | { name: string; value: string }
  | { name: string; value: string; namespace: string; prefix: string | null; localName: string };

/**
 * One recorded mutation event: one JSON line. Node handles are numeric ids: the document is 0, and every
 * `create*` event allocates the next id (1, 2, 3, …). Text nodes get no id (the tree builder never
 * refers to one). Locations are `{"start","end"}` UTF-16 offsets into the input, or null.
 *
 * - `{"op":"createElement","id","localName","namespace","attributes":[RecordedAttribute…],"location"}`;
 *   for an HTML `<template>` also `"contents"`: the id given to its template contents, right after its own.
 * - `{"op":"createComment","id","data","location"}`
 * - `{"op":"createDocumentType","id","name","publicId","systemId","location"}`
 * - `{"op":"insertText","parent","data","before","location"}`: insert a character (merging with a Text
 *   node just before the insertion point); `before` is an id or null (append).
 * - `{"op":"insertBefore","parent","node","before"}`: DOM insertBefore (moves the node); `before` may be null.
 * - `{"op":"remove","node"}`
 * - `{"op":"moveChildren","from","to"}`
 * - `{"op":"addMissingAttributes","element","attributes":[RecordedAttribute…]}`
 * - `{"op":"setDocumentMode","mode"}`: `"no-quirks"`, `"quirks"` or `"limited-quirks"`.
 * - `{"op":"elementPopped","element","endLocation"}`
 *
 * The sink's queries (`parentNode`, `templateContents`) are answered, not recorded.
 */
export type RecordedEvent =
  | {
      op: 'createElement';
      id: number;
      localName: string;
      namespace: ElementNamespace;
      attributes: RecordedAttribute[];
      location: SourceLocation | null;
      contents?: number;
    }
  | { op: 'createComment'; id: number; data: string; location: SourceLocation | null }
  | {
      op: 'createDocumentType';
      id: number;
      name: string;
      publicId: string;
      systemId: string;
      location: SourceLocation | null;
    }
  | { op: 'insertText'; parent: number; data: string; before: number | null; location: SourceLocation | null }
  | { op: 'insertBefore'; parent: number; node: number; before: number | null }
  | { op: 'remove'; node: number }
  | { op: 'moveChildren'; from: number; to: number }
  | { op: 'addMissingAttributes'; element: number; attributes: RecordedAttribute[] }
  | { op: 'setDocumentMode'; mode: DocumentMode }
  | { op: 'elementPopped'; element: number; endLocation: SourceLocation | null };

/** Options for {@link RecordingSink}. */
export interface RecordingSinkOptions {
  /** Called with each line as it is recorded (stream them out from here). */
  onLine?: (line: string) => void;
  /** Keep the lines for {@link RecordingSink.lines} (default true; turn off when streaming a big input). */
  keepLines?: boolean;
}

const NONE = -1;

/**
 * A `TreeSink<number>` that records every mutation event as a JSON line (see {@link RecordedEvent} for the
 * schema). It keeps just enough of the tree (parent and sibling links of the nodes it gave ids to) to
 * answer `parentNode`.
 */
export class RecordingSink implements TreeSink<number> {
  /** The document's id: 0. */
  readonly document = 0;
  private readonly recorded: string[] = [];
  private readonly onLine: ((line: string) => void) | undefined;
  private readonly keep: boolean;
  // Per id: parent, first/last child, previous/next sibling (NONE when absent); kind: 0 document or
  // fragment, 1 element, 2 other node, 3 template element (contents id in `contents`).
  private readonly parent: number[] = [NONE];
  private readonly first: number[] = [NONE];
  private readonly last: number[] = [NONE];
  private readonly next: number[] = [NONE];
  private readonly prev: number[] = [NONE];
  private readonly kind: number[] = [0];
  private readonly contents = new Map<number, number>();

  /** Record into `lines()`, and/or stream each line to `options.onLine`. */
  constructor(options: RecordingSinkOptions = {}) {
    this.onLine = options.onLine;
    this.keep = options.keepLines ?? true;
  }

  /** The lines recorded so far (empty when `keepLines` is false). */
  lines(): string[] {
    return this.recorded.slice();
  }

  createElement(
    localName: string,
    namespace: ElementNamespace,
    attributes: readonly ElementAttribute[],
    location: SourceLocation | null,
  ): number {
    const isTemplate = localName === 'template' && namespace === NS.HTML;
    const id = this.allocate(isTemplate ? 3 : 1);
    const event: Extract<RecordedEvent, { op: 'createElement' }> = { op: 'createElement', id, localName, namespace, attributes: recordAttributes(attributes), location };
    if (isTemplate) {
      const contents = this.allocate(0);
      this.contents.set(id, contents);
      event.contents = contents;
    }
    this.emit(event);
    return id;
  }

  createComment(data: string, location: SourceLocation | null): number {
    const id = this.allocate(2);
    this.emit({ op: 'createComment', id, data, location });
    return id;
  }

  createDocumentType(name: string, publicId: string, systemId: string, location: SourceLocation | null): number {
    const id = this.allocate(2);
    this.emit({ op: 'createDocumentType', id, name, publicId, systemId, location });
    return id;
  }

  insertText(parent: number, data: string, before: number | null, location: SourceLocation | null): void {
    this.check(parent, 'insertText');
    if (before !== null) this.checkChild(parent, before, 'insertText');
    this.emit({ op: 'insertText', parent, data, before, location });
  }

  insertBefore(parent: number, node: number, before: number | null): void {
    this.check(parent, 'insertBefore');
    this.check(node, 'insertBefore');
    if (before !== null) this.checkChild(parent, before, 'insertBefore');
    this.emit({ op: 'insertBefore', parent, node, before });
    if (before === node) return;
    this.unlink(node);
    this.link(parent, node, before ?? NONE);
  }

  remove(node: number): void {
    this.check(node, 'remove');
    this.emit({ op: 'remove', node });
    this.unlink(node);
  }

  moveChildren(from: number, to: number): void {
    this.check(from, 'moveChildren');
    this.check(to, 'moveChildren');
    this.emit({ op: 'moveChildren', from, to });
    let c = this.first[from];
    while (c !== NONE) {
      const n = this.next[c];
      this.unlink(c);
      this.link(to, c, NONE);
      c = n;
    }
  }

  parentNode(node: number): number | null {
    this.check(node, 'parentNode');
    const p = this.parent[node];
    return p === NONE ? null : p;
  }

  addMissingAttributes(element: number, attributes: readonly ElementAttribute[]): void {
    this.check(element, 'addMissingAttributes');
    this.emit({ op: 'addMissingAttributes', element, attributes: recordAttributes(attributes) });
  }

  setDocumentMode(mode: DocumentMode): void {
    this.emit({ op: 'setDocumentMode', mode });
  }

  templateContents(template: number): number {
    const c = this.contents.get(template);
    if (c === undefined) throw new Error(`RecordingSink.templateContents: node ${template} is not an HTML <template> element`);
    return c;
  }

  elementPopped(element: number, endLocation: SourceLocation | null): void {
    this.check(element, 'elementPopped');
    this.emit({ op: 'elementPopped', element, endLocation });
  }

  private emit(event: RecordedEvent): void {
    const line = JSON.stringify(event);
    if (this.keep) this.recorded.push(line);
    this.onLine?.(line);
  }

  private allocate(kind: number): number {
    const id = this.kind.length;
    this.kind.push(kind);
    this.parent.push(NONE);
    this.first.push(NONE);
    this.last.push(NONE);
    this.next.push(NONE);
    this.prev.push(NONE);
    return id;
  }

  private check(id: number, method: string): void {
    if (!Number.isInteger(id) || id < 0 || id >= this.kind.length) {
      throw new Error(`RecordingSink.${method}: ${String(id)} is not a node id this sink handed out`);
    }
  }

  private checkChild(parent: number, child: number, method: string): void {
    this.check(child, method);
    if (this.parent[child] !== parent) throw new Error(`RecordingSink.${method}: node ${child} is not a child of node ${parent}`);
  }

  private unlink(node: number): void {
    const p = this.parent[node];
    if (p === NONE) return;
    const prev = this.prev[node];
    const next = this.next[node];
    if (prev === NONE) this.first[p] = next;
    else this.next[prev] = next;
    if (next === NONE) this.last[p] = prev;
    else this.prev[next] = prev;
    this.parent[node] = this.prev[node] = this.next[node] = NONE;
  }

  private link(parent: number, node: number, before: number): void {
    this.parent[node] = parent;
    if (before === NONE) {
      const last = this.last[parent];
      this.prev[node] = last;
      this.next[node] = NONE;
      if (last === NONE) this.first[parent] = node;
      else this.next[last] = node;
      this.last[parent] = node;
    } else {
      const prev = this.prev[before];
      this.prev[node] = prev;
      this.next[node] = before;
      this.prev[before] = node;
      if (prev === NONE) this.first[parent] = node;
      else this.next[prev] = node;
    }
  }
}

function recordAttributes(attributes: readonly ElementAttribute[]): RecordedAttribute[] {
  return attributes.map((a) =>
    a.namespace === null
      ? { name: a.name, value: a.value }
      : { name: a.name, value: a.value, namespace: a.namespace, prefix: a.prefix, localName: a.localName },
  );
}

function restoreAttributes(attributes: readonly RecordedAttribute[]): ElementAttribute[] {
  return attributes.map((a) =>
    'namespace' in a
      ? ({ name: a.name, value: a.value, namespace: a.namespace, prefix: a.prefix, localName: a.localName } as ElementAttribute)
      : { name: a.name, value: a.value, namespace: null, prefix: null, localName: a.name },
  );
}

/**
 * Play recorded events (JSON lines from a {@link RecordingSink}, or parsed {@link RecordedEvent}s) into
 * `sink`, in order. Returns the handles by id (index 0 is `sink.document`). Throws an Error naming the
 * line for an event it cannot apply (unknown op, unknown id).
 */
export function replayRecording<N>(events: Iterable<string | RecordedEvent>, sink: TreeSink<N>): N[] {
  const handles: N[] = [sink.document];
  let lineNo = 0;
  const get = (id: number | null, what: string): N => {
    const h = id === null ? undefined : handles[id];
    if (h === undefined) throw new Error(`replayRecording: event ${lineNo}: unknown ${what} id ${String(id)}`);
    return h;
  };
  const opt = (id: number | null, what: string): N | null => (id === null ? null : get(id, what));
  for (const item of events) {
    lineNo++;
    const e: RecordedEvent = typeof item === 'string' ? (JSON.parse(item) as RecordedEvent) : item;
    switch (e.op) {
      case 'createElement': {
        const h = sink.createElement(e.localName, e.namespace, restoreAttributes(e.attributes), e.location);
        handles[e.id] = h;
        if (e.contents !== undefined) handles[e.contents] = sink.templateContents(h);
        break;
      }
      case 'createComment':
        handles[e.id] = sink.createComment(e.data, e.location);
        break;
      case 'createDocumentType':
        handles[e.id] = sink.createDocumentType(e.name, e.publicId, e.systemId, e.location);
        break;
      case 'insertText':
        sink.insertText(get(e.parent, 'parent'), e.data, opt(e.before, 'before'), e.location);
        break;
      case 'insertBefore':
        sink.insertBefore(get(e.parent, 'parent'), get(e.node, 'node'), opt(e.before, 'before'));
        break;
      case 'remove':
        sink.remove(get(e.node, 'node'));
        break;
      case 'moveChildren':
        sink.moveChildren(get(e.from, 'from'), get(e.to, 'to'));
        break;
      case 'addMissingAttributes':
        sink.addMissingAttributes(get(e.element, 'element'), restoreAttributes(e.attributes));
        break;
      case 'setDocumentMode':
        sink.setDocumentMode(e.mode);
        break;
      case 'elementPopped':
        sink.elementPopped?.(get(e.element, 'element'), e.endLocation);
        break;
      default:
        throw new Error(`replayRecording: event ${lineNo}: unknown op ${JSON.stringify((e as { op: unknown }).op)}`);
    }
  }
  return handles;
}
