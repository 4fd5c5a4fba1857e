/**
 * `Text` and `Comment` (DOM Standard §4.10 "Interface CharacterData", §4.11 "Interface Text",
 * §4.14 "Interface Comment").
 */
import { TextTokenClass, type TextKind } from '@sluice/tokenizer';
import type { SourceLocation } from '@sluice/tree-builder';
import type { Document } from './document.js';
import { Node, NodeType, domError, endOfUndecoded, kindOfUndecoded, leafNode, registerTextFactory } from './node.js';
import * as childNode from './child-node.js'; // Editing (issue #16)

/** The common base of Text and Comment: a node holding a string, `data`. */
export abstract class CharacterData extends Node {
  /**
   * @internal The node's string (see `data`) — or, while `_end < -1`, the string the parser read the
   * node's text from: the data is then the text token `[_start, end)` of it decoded, `end` and the
   * token's kind being packed in `_end` (`undecodedEnd`). `DomTreeSink` makes Text nodes so: most text
   * of a parsed page is never read, and undecoded it costs no string of its own (a slice of the page,
   * or a copy where newlines are normalized or character references decoded). Decoded on first read.
   */
  declare _data: string;

  /** @internal */
  constructor(ownerDocument: Document | null, data: string, location: SourceLocation | null) {
    super(ownerDocument, location, false);
    this._data = data;
  }

  /**
   * The node's string. The parser appends to a Text node's data with `+=`, which V8 turns into a rope,
   * so repeated appends are O(1) each and the string is flattened once, when read.
   */
  get data(): string {
    return this._end < -1 ? this._decodeData() : this._data;
  }
  set data(value: string) {
    if (this._end < -1) this._decodeData();
    this._data = value;
  }

  /**
   * @internal Decode the data the parser left undecoded (`_end < -1`, see `_data`): what the tree
   * builder's `insertTextToken` stands for, the token's characters less any U+0000 (HTML §13.2.6.4.7
   * drops them "in body"; the other text modes have none left).
   */
  _decodeData(): string {
    const encoded = this._end;
    const start = this._start;
    const end = endOfUndecoded(encoded);
    const value = new TextTokenClass(TEXT_KINDS[kindOfUndecoded(encoded)], this._data, start, false, start, end - start).value;
    const data = value.indexOf('\0') < 0 ? value : value.replaceAll('\0', '');
    this._end = end;
    this._data = data;
    return data;
  }
  /** @internal */
  override _beforeLocationChange(): void {
    if (this._end < -1) this._decodeData();
  }

  /** The length of `data` in UTF-16 code units. */
  get length(): number {
    return this.data.length;
  }
  override get nodeValue(): string {
    return this.data;
  }
  override set nodeValue(value: string | null) {
    this.data = value ?? '';
  }
  override get textContent(): string {
    return this.data;
  }
  override set textContent(value: string | null) {
    this.data = value ?? '';
  }
  /** Append `data` to the node's data. */
  appendData(data: string): void {
    this.data += String(data);
  }
  // ---- Editing (issue #16): DOM §4.2.8 ChildNode (algorithms in child-node.ts; `remove` is Node's).
  /** Insert nodes (strings become Text nodes) just before this node (DOM `ChildNode.before`; no-op without a parent). */
  before(...nodes: (Node | string)[]): void {
    childNode.before(this, nodes);
  }
  /** Insert nodes (strings become Text nodes) just after this node (DOM `ChildNode.after`; no-op without a parent). */
  after(...nodes: (Node | string)[]): void {
    childNode.after(this, nodes);
  }
  /** Replace this node with nodes (strings become Text nodes) (DOM `ChildNode.replaceWith`; no-op without a parent). */
  replaceWith(...nodes: (Node | string)[]): void {
    childNode.replaceWith(this, nodes);
  }
  /**
   * `count` code units from `offset` (fewer at the end; DOM §4.10 `substringData`). IndexSizeError when
   * `offset` is past the end. Offsets and counts are UTF-16 code units, converted as WebIDL's
   * `unsigned long` (so -1 is 4294967295: "to the end").
   */
  substringData(offset: number, count: number): string {
    const [start, n] = this._range(offset, count, 'substringData');
    return this.data.slice(start, start + n);
  }
  /** Insert `data` at `offset` (DOM §4.10 `insertData`). IndexSizeError when `offset` is past the end. */
  insertData(offset: number, data: string): void {
    this.replaceData(offset, 0, data);
  }
  /** Delete `count` code units from `offset` (DOM §4.10 `deleteData`). IndexSizeError when `offset` is past the end. */
  deleteData(offset: number, count: number): void {
    this.replaceData(offset, count, '');
  }
  /** Replace `count` code units at `offset` with `data` (DOM §4.10 "replace data"). IndexSizeError when `offset` is past the end. */
  replaceData(offset: number, count: number, data: string): void {
    const [start, n] = this._range(offset, count, 'replaceData');
    const d = this.data;
    this.data = d.slice(0, start) + String(data) + d.slice(start + n);
  }
  /** @internal `offset` and `count` as WebIDL unsigned longs, `count` clamped to the end; IndexSizeError past it. */
  _range(offset: number, count: number, method: string): [number, number] {
    const start = Number(offset) >>> 0;
    const n = Number(count) >>> 0;
    const length = this.data.length;
    if (start > length) domError('IndexSizeError', `${method}: offset ${start} is past the end of the data (length ${length})`);
    return [start, Math.min(n, length - start)];
  }
  // ---- End of editing block.
}

leafNode(CharacterData.prototype);

/** @internal The text kinds by the index `undecodedEnd` packs. */
export const TEXT_KINDS: readonly TextKind[] = ['data', 'rcdata', 'rawtext', 'scriptData', 'plaintext', 'cdata'];

/** A Text node. */
export class Text extends CharacterData {
  /** Create a detached Text node (like `new Text(data)` in the DOM; prefer `document.createTextNode`). */
  constructor(data = '', ownerDocument: Document | null = null, location: SourceLocation | null = null) {
    super(ownerDocument, data, location);
  }
  get nodeType(): 3 {
    return NodeType.TEXT_NODE;
  }
  get nodeName(): '#text' {
    return '#text';
  }
  /** @internal */
  _cloneShallow(owner: Document | null): Text {
    return new Text(this.data, owner);
  }
  // ---- Editing (issue #16): DOM §4.11 Text.
  /**
   * Split this node at `offset` (DOM §4.11 `splitText`): the data from `offset` on moves into a new Text
   * node, inserted just after this one when it has a parent, and returned. IndexSizeError past the end.
   */
  splitText(offset: number): Text {
    const [start] = this._range(offset, 0, 'splitText');
    const rest = new Text(this.data.slice(start), this._owner);
    const parent = this._parent;
    if (parent !== null) parent._insertBefore(rest, this._next);
    this.data = this.data.slice(0, start);
    return rest;
  }
  /** The data of this node and the Text nodes next to it, with no other node between (DOM §4.11 `wholeText`). */
  get wholeText(): string {
    let first: Node = this;
    while (first._prev !== null && first._prev.nodeType === NodeType.TEXT_NODE) first = first._prev;
    let out = '';
    for (let n: Node | null = first; n !== null && n.nodeType === NodeType.TEXT_NODE; n = n._next) out += (n as Text).data;
    return out;
  }
  // ---- End of editing block.
}

// Editing (issue #16): the DOM algorithms in node.ts that create Text nodes ("string replace all",
// "convert nodes into a node") get them from here; node.ts cannot import this module (Text extends Node).
registerTextFactory((data, owner) => new Text(data, owner));
// End of editing block.

/** A Comment node. */
export class Comment extends CharacterData {
  /** Create a detached Comment (like `new Comment(data)` in the DOM; prefer `document.createComment`). */
  constructor(data = '', ownerDocument: Document | null = null, location: SourceLocation | null = null) {
    super(ownerDocument, data, location);
  }
  get nodeType(): 8 {
    return NodeType.COMMENT_NODE;
  }
  get nodeName(): '#comment' {
    return '#comment';
  }
  /** @internal */
  _cloneShallow(owner: Document | null): Comment {
    return new Comment(this.data, owner);
  }
}
