/** Handler types and the compiled form of a rewriter's registrations. */
import type { CommentUnit } from '../rewritable-units/comment.js';
import type { DoctypeUnit } from '../rewritable-units/doctype.js';
import type { DocumentEndUnit } from '../rewritable-units/document-end.js';
import type { ElementUnit } from '../rewritable-units/element.js';
import type { TextChunkUnit } from '../rewritable-units/text-chunk.js';
import type { SelectorList } from '../selectors/ast.js';
import type { SelectorRegistry } from '../selectors/registry.js';

/** What a handler may return: nothing, or a promise the stream waits for. */
export type HandlerResult = void | Promise<void>;

/** The handlers of `HTMLRewriter.on(selector, handlers)`. Each is called as a method of the object. */
export interface ElementHandlers {
  /** Called for each element the selector matches, at its start tag. */
  element?(element: ElementUnit): HandlerResult;
  /** Called for each comment inside a matched element (its descendants' included). */
  comments?(comment: CommentUnit): HandlerResult;
  /** Called for each text chunk inside a matched element (its descendants' included). */
  text?(text: TextChunkUnit): HandlerResult;
}

/** The handlers of `HTMLRewriter.onDocument(handlers)`. */
export interface DocumentHandlers {
  /** Called for the DOCTYPE. */
  doctype?(doctype: DoctypeUnit): HandlerResult;
  /** Called for every comment of the document. */
  comments?(comment: CommentUnit): HandlerResult;
  /** Called for every text chunk of the document. */
  text?(text: TextChunkUnit): HandlerResult;
  /** Called once at the end of the document. */
  end?(end: DocumentEndUnit): HandlerResult;
}

export type Fn<T> = (unit: T) => HandlerResult;

/** One `.on()` call, compiled. */
export interface Registration {
  /** The selector as given to `.on()`. */
  readonly selector: string;
  readonly list: SelectorList;
  readonly element: Fn<ElementUnit> | null;
  readonly comments: Fn<CommentUnit> | null;
  readonly text: Fn<TextChunkUnit> | null;
}

/** Everything a transform needs from the rewriter's registrations, fixed when the transform starts. */
export interface CompiledHandlers {
  readonly registry: SelectorRegistry;
  readonly registrations: readonly Registration[];
  /** Registration indices per lowercased rightmost type name. */
  readonly byTag: ReadonlyMap<string, readonly number[]>;
  /** Registration indices whose rightmost compound has no type selector. */
  readonly anyTag: readonly number[];
  readonly docDoctype: readonly Fn<DoctypeUnit>[];
  readonly docComments: readonly Fn<CommentUnit>[];
  readonly docText: readonly Fn<TextChunkUnit>[];
  readonly docEnd: readonly Fn<DocumentEndUnit>[];
}
