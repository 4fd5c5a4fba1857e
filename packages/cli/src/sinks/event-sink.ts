/**
 * `EventSink`: the tree builder's mutation events as JSON lines, in `@sluice/dom`'s `RecordingSink`
 * shape (same ids, same fields, same order — `replayRecording` reads them), for an input of any size.
 *
 * `RecordingSink` keeps six numbers per node it ever made, to answer `parentNode`; over a 1 GB page that
 * is hundreds of megabytes. Here a node is a small object that knows only its parent, so a closed
 * subtree that the tree builder no longer refers to is garbage. The only query the tree builder makes,
 * `parentNode` (foster parenting asks for the table's, §13.2.6.1), is answered from that parent link,
 * with `moveChildren` (the adoption agency algorithm, §13.2.6.4.7) kept as a forwarding record on the
 * node moved from: a child inserted before the move has moved with it, one inserted after has not.
 * Without `onLine` the sink records nothing and is the cheapest sink the tree builder can drive.
 */
import { NS } from '@sluice/tree-builder';
import type { DocumentMode, ElementAttribute, ElementNamespace, SourceLocation, TreeSink } from '@sluice/tree-builder';

/** A node: its id, and where it is. */
export class EventNode {
  parent: EventNode | null = null;
  /** The value of the sink's insertion clock when this node was last inserted. */
  insertedAt = 0;
  /** `moveChildren` from this node: when (the clock) and where to. Almost always null. */
  moves: { at: number; to: EventNode }[] | null = null;
  /** For an HTML `<template>`: its contents. */
  contents: EventNode | null = null;
  constructor(readonly id: number) {}
}

type Attr = { name: string; value: string } | { name: string; value: string; namespace: string; prefix: string | null; localName: string };

function recordAttributes(attributes: readonly ElementAttribute[]): Attr[] {
  const out: Attr[] = new Array(attributes.length);
  for (let i = 0; i < attributes.length; i++) {
    const a = attributes[i]!;
    out[i] = a.namespace === null ? { name: a.name, value: a.value } : { name: a.name, value: a.value, namespace: a.namespace, prefix: a.prefix, localName: a.localName };
  }
  return out;
}

export class EventSink implements TreeSink<EventNode> {
  readonly document = new EventNode(0);
  private nextId = 1;
  private clock = 0;

  /** @param onLine receives each event's JSON line; without it nothing is serialized. */
  constructor(private readonly onLine: ((line: string) => void) | null = null) {}

  createElement(localName: string, namespace: ElementNamespace, attributes: readonly ElementAttribute[], location: SourceLocation | null): EventNode {
    const node = new EventNode(this.nextId++);
    const isTemplate = localName === 'template' && namespace === NS.HTML;
    if (isTemplate) node.contents = new EventNode(this.nextId++);
    if (this.onLine !== null) {
      const event: Record<string, unknown> = { op: 'createElement', id: node.id, localName, namespace, attributes: recordAttributes(attributes), location: loc(location) };
      if (isTemplate) event.contents = node.contents!.id;
      this.onLine(JSON.stringify(event));
    }
    return node;
  }

  createComment(data: string, location: SourceLocation | null): EventNode {
    const node = new EventNode(this.nextId++);
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'createComment', id: node.id, data, location: loc(location) }));
    return node;
  }

  createDocumentType(name: string, publicId: string, systemId: string, location: SourceLocation | null): EventNode {
    const node = new EventNode(this.nextId++);
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'createDocumentType', id: node.id, name, publicId, systemId, location: loc(location) }));
    return node;
  }

  insertText(parent: EventNode, data: string, before: EventNode | null, location: SourceLocation | null): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'insertText', parent: parent.id, data, before: before === null ? null : before.id, location: loc(location) }));
  }

  insertBefore(parent: EventNode, node: EventNode, before: EventNode | null): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'insertBefore', parent: parent.id, node: node.id, before: before === null ? null : before.id }));
    if (before === node) return;
    node.parent = parent;
    node.insertedAt = ++this.clock;
  }

  remove(node: EventNode): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'remove', node: node.id }));
    node.parent = null;
    node.insertedAt = ++this.clock;
  }

  moveChildren(from: EventNode, to: EventNode): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'moveChildren', from: from.id, to: to.id }));
    (from.moves ??= []).push({ at: ++this.clock, to });
  }

  /** The parent, following the moves of children made after the node was inserted where it was. */
  parentNode(node: EventNode): EventNode | null {
    let p = node.parent;
    let at = node.insertedAt;
    while (p !== null && p.moves !== null) {
      const move = p.moves.find((m) => m.at > at);
      if (move === undefined) break;
      p = move.to;
      at = move.at;
    }
    // Remember the answer: the next question starts from here.
    if (p !== node.parent) {
      node.parent = p;
      node.insertedAt = at;
    }
    return p;
  }

  addMissingAttributes(element: EventNode, attributes: readonly ElementAttribute[]): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'addMissingAttributes', element: element.id, attributes: recordAttributes(attributes) }));
  }

  setDocumentMode(mode: DocumentMode): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'setDocumentMode', mode }));
  }

  templateContents(template: EventNode): EventNode {
    if (template.contents === null) throw new Error(`EventSink.templateContents: node ${template.id} is not an HTML <template> element`);
    return template.contents;
  }

  elementPopped(element: EventNode, endLocation: SourceLocation | null): void {
    if (this.onLine !== null) this.onLine(JSON.stringify({ op: 'elementPopped', element: element.id, endLocation: loc(endLocation) }));
  }
}

/** A location as RecordingSink writes it: the object the tree builder gave, as it is. */
function loc(location: SourceLocation | null): SourceLocation | null {
  return location;
}
