/**
 * `@sluice/dom`: a small, standard-shaped DOM, the tree sink that builds it from sluice's tree builder,
 * `parse`/`parseFragment`, the HTML serializer (HTML §13.3), the html5lib test-format dump, and a
 * JSON-lines recording sink.
 */
export { Node, NodeType, nextInSubtree, nextSkippingChildren } from './node.js';
export { CharacterData, Text, Comment } from './character-data.js';
export { Attr, NamedNodeMap } from './attr.js';
export { Element, HTMLTemplateElement } from './element.js';
export { DOMTokenList } from './dom-token-list.js'; // Editing (issue #16): element.classList
export { DOMStringMap } from './dataset.js'; // Editing (issue #16): element.dataset
export type { NodeOrString, InsertPosition } from './child-node.js'; // Editing (issue #16): append, before, insertAdjacent* take these
export { DocumentFragment } from './document-fragment.js';
export { DocumentType } from './document-type.js';
export { Document } from './document.js';
export { DomTreeSink, type DomTreeSinkOptions } from './tree-sink.js';
export type { NodeSourceLocation, SourceCodeLocation, StartTagSourceLocation } from './source-location.js';
export { parse, parseFragment, resolveContext, type ParseOptions } from './parse.js';
/** The shape of every parse error `parse`'s `onParseError` gets (from `@sluice/tokenizer`). */
export type { ParseError } from '@sluice/tree-builder';
export { serialize, serializeOuter, serializeChunks, escapeString, type SerializeOptions, type SerializeChunksOptions } from './serialize.js';
export { toTestFormat } from './test-format.js';
export { toIndentedTree, indentedTreeLines, type IndentedTreeOptions } from './indented-tree.js';
// Adapters (issue #16): the same tree in domhandler's (cheerio), hast's (rehype) and parse5's shape.
export {
  toDomhandler,
  DomhandlerNodeBase,
  DomhandlerDataNode,
  DomhandlerText,
  DomhandlerComment,
  DomhandlerProcessingInstruction,
  DomhandlerNodeWithChildren,
  DomhandlerDocument,
  DomhandlerElement,
  type DomhandlerType,
  type DomhandlerParent,
  type DomhandlerChild,
  type DomhandlerAnyNode,
} from './adapters/domhandler.js';
export {
  toHast,
  type HastNode,
  type HastRoot,
  type HastElement,
  type HastDoctype,
  type HastText,
  type HastComment,
  type HastRootContent,
  type HastElementContent,
  type HastProperties,
  type HastPropertyValue,
  type HastPosition,
  type HastPoint,
} from './adapters/hast.js';
export {
  toParse5,
  type Parse5Node,
  type Parse5Document,
  type Parse5DocumentFragment,
  type Parse5Element,
  type Parse5DocumentType,
  type Parse5TextNode,
  type Parse5CommentNode,
  type Parse5ParentNode,
  type Parse5ChildNode,
  type Parse5Attribute,
} from './adapters/parse5.js';
export type { Parse5Location, Parse5Span, Parse5SpanWithAttributes } from './adapters/location.js';
export {
  RecordingSink,
  replayRecording,
  type RecordingSinkOptions,
  type RecordedEvent,
  type RecordedAttribute,
} from './recording-sink.js';
