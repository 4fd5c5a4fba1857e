/** `DocumentType` (DOM Standard §4.6). */
import type { SourceLocation } from '@sluice/tree-builder';
import type { Document } from './document.js';
import { Node, NodeType, leafNode } from './node.js';
import * as childNode from './child-node.js'; // Editing (issue #16)

/** A doctype: `<!DOCTYPE name PUBLIC "publicId" "systemId">`. Missing identifiers are empty strings. */
export class DocumentType extends Node {
  /** The doctype's name (`html`), possibly empty. */
  declare readonly name: string;
  /** The public identifier, or the empty string. */
  declare readonly publicId: string;
  /** The system identifier, or the empty string. */
  declare readonly systemId: string;

  /** Create a detached doctype (`document.createDocumentType(name, publicId, systemId)` does the same). */
  constructor(
    name: string,
    publicId = '',
    systemId = '',
    ownerDocument: Document | null = null,
    location: SourceLocation | null = null,
  ) {
    super(ownerDocument, location, false);
    this.name = name;
    this.publicId = publicId;
    this.systemId = systemId;
  }
  get nodeType(): 10 {
    return NodeType.DOCUMENT_TYPE_NODE;
  }
  get nodeName(): string {
    return this.name;
  }
  /** @internal */
  _cloneShallow(owner: Document | null): DocumentType {
    return new DocumentType(this.name, this.publicId, this.systemId, owner);
  }
  override get textContent(): null {
    return null;
  }
  override set textContent(_value: string | null) {
    // DOM §4.4: setting textContent on a doctype does nothing.
  }
  // ---- Editing (issue #16): DOM §4.2.8 ChildNode (algorithms in child-node.ts; `remove` is Node's).
  /** Insert nodes (strings become Text nodes) just before this doctype (DOM `ChildNode.before`; no-op without a parent). */
  before(...nodes: (Node | string)[]): void {
    childNode.before(this, nodes);
  }
  /** Insert nodes (strings become Text nodes) just after this doctype (DOM `ChildNode.after`; no-op without a parent). */
  after(...nodes: (Node | string)[]): void {
    childNode.after(this, nodes);
  }
  /** Replace this doctype with nodes (strings become Text nodes) (DOM `ChildNode.replaceWith`; no-op without a parent). */
  replaceWith(...nodes: (Node | string)[]): void {
    childNode.replaceWith(this, nodes);
  }
  // ---- End of editing block.
}

leafNode(DocumentType.prototype);
