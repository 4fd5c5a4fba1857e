/**
 * The `innerHTML` and `outerHTML` setters (HTML §8.5 "DOM parsing and serialization APIs": the
 * `innerHTML` and `outerHTML` setter steps, and the "fragment parsing algorithm steps", which for an
 * HTML document run the HTML fragment parsing algorithm, §13.2.8, with the element as context).
 */
import { NS } from '@sluice/tree-builder';
import type { DocumentFragment } from './document-fragment.js';
import { Element } from './element.js';
import { type Node, NodeType, domError, replaceAll, replaceNode } from './node.js';
import { insertAdjacent } from './child-node.js';
import { parseFragment } from './parse.js';

/**
 * HTML "fragment parsing algorithm steps" with `context`: the nodes `markup` parses to as `context`'s
 * children, in a DocumentFragment of `context`'s document. Uses the document's mode (quirks …) and
 * scripting flag (how `<noscript>` parses), as a browser does for the document the element is in.
 * @internal
 */
export function fragmentParsingAlgorithm(context: Element, markup: string, method: string): DocumentFragment {
  const ns = context.namespaceURI;
  if (ns !== NS.HTML && ns !== NS.SVG && ns !== NS.MATHML) {
    // The tree builder's fragment case knows the HTML, SVG and MathML namespaces only.
    domError(
      'NotSupportedError',
      `${method}: sluice's HTML parser cannot use <${context.localName}> in namespace ${String(ns)} as the fragment parsing context (HTML, SVG and MathML elements only)`,
    );
  }
  const doc = context.ownerDocument;
  return parseFragment(String(markup), context, { scripting: doc !== null && doc.scriptingEnabled });
}

/**
 * The `innerHTML` setter: parse `markup` with `element` as context and replace its children — a
 * `<template>`'s contents instead — with the result ("replace all").
 * @internal
 */
export function setInnerHTML(element: Element, markup: string | null): void {
  // WebIDL [LegacyNullToEmptyString]: null sets nothing, not the text "null".
  const fragment = fragmentParsingAlgorithm(element, markup ?? '', 'innerHTML');
  const target = element._templateContents() ?? element;
  replaceAll(fragment, target);
}

/**
 * The `outerHTML` setter: parse `markup` with the element's parent as context and replace the element
 * with the result. Nothing happens for an element without a parent; a Document parent throws
 * NoModificationAllowedError; a DocumentFragment parent parses with a new `<body>` as context.
 * @internal
 */
export function setOuterHTML(element: Element, markup: string | null): void {
  const parent = element._parent;
  if (parent === null) return;
  if (parent.nodeType === NodeType.DOCUMENT_NODE) {
    domError('NoModificationAllowedError', 'outerHTML: the element is the document element (its parent is a Document), which cannot be replaced this way');
  }
  let context: Element;
  if (parent.nodeType === NodeType.DOCUMENT_FRAGMENT_NODE) {
    const doc = element.ownerDocument;
    if (doc === null) {
      // No document to make the `<body>` in: a detached one does the same job (its name and namespace
      // are all the parser reads, and the new nodes get no document, like the element).
      context = new Element(null, 'body');
    } else {
      context = doc.createElement('body');
    }
  } else {
    context = parent as Element;
  }
  const fragment = fragmentParsingAlgorithm(context, markup ?? '', 'outerHTML'); // [LegacyNullToEmptyString]
  replaceNode(element, fragment, parent, 'outerHTML');
}

/**
 * HTML §8.5 `insertAdjacentHTML(position, markup)`: parse `markup` with the right context — the parent
 * for beforebegin/afterend, the element itself for afterbegin/beforeend; a `<body>` instead of a
 * non-element or an `<html>` context — and insert the nodes there. NoModificationAllowedError for
 * beforebegin/afterend when the parent is a Document or missing; SyntaxError for another position.
 * @internal
 */
export function insertAdjacentHTML(element: Element, position: string, markup: string): void {
  const where = String(position).replace(/[A-Z]+/g, (m) => m.toLowerCase());
  let context: Node | null;
  if (where === 'beforebegin' || where === 'afterend') {
    context = element._parent;
    if (context === null || context.nodeType === NodeType.DOCUMENT_NODE) {
      domError(
        'NoModificationAllowedError',
        `insertAdjacentHTML: ${where} needs a parent element, and this element's parent is ${context === null ? 'missing' : 'a Document'}`,
      );
    }
  } else if (where === 'afterbegin' || where === 'beforeend') {
    context = element;
  } else {
    return void domError('SyntaxError', `insertAdjacentHTML: ${JSON.stringify(String(position))} is not one of "beforebegin", "afterbegin", "beforeend", "afterend"`);
  }
  let contextElement: Element;
  if (context.nodeType !== NodeType.ELEMENT_NODE || isHtmlElement(context as Element, 'html')) {
    const doc = element.ownerDocument;
    contextElement = doc === null ? new Element(null, 'body') : doc.createElement('body');
  } else {
    contextElement = context as Element;
  }
  const fragment = fragmentParsingAlgorithm(contextElement, markup, 'insertAdjacentHTML');
  insertAdjacent(element, where, fragment, 'insertAdjacentHTML');
}

function isHtmlElement(el: Element, localName: string): boolean {
  return el.localName === localName && el.namespaceURI === NS.HTML;
}
