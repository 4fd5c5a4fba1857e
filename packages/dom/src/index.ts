/**
 * `@sluice/dom`: a small, standard-shaped DOM, the tree sink that builds it from sluice's tree builder,
 * `parse`/`parseFragment`, the HTML serializer (HTML §13.3), the html5lib test-format dump, and a
 * JSON-lines recording sink.
 */
export { Node, NodeType, nextInSubtree, nextSkippingChildren } from './node.js';
export { CharacterData, Text, Comment } from './character-data.js';
export { Attr, NamedNodeMap } from './attr.js';
export { Element, HTMLTemplateElement } from './element.js';
export { DocumentFragment } from './document-fragment.js';
export { DocumentType } from './document-type.js';
export { Document } from './document.js';
export { DomTreeSink } from './tree-sink.js';
export { parse, parseFragment, resolveContext, type ParseOptions } from './parse.js';
export { serialize, serializeOuter, escapeString, type SerializeOptions } from './serialize.js';
export { toTestFormat } from './test-format.js';
export { toIndentedTree, type IndentedTreeOptions } from './indented-tree.js';
export {
  RecordingSink,
  replayRecording,
  type RecordingSinkOptions,
  type RecordedEvent,
  type RecordedAttribute,
} from './recording-sink.js';
