/**
 * `querySelector`, `querySelectorAll`, `matches`, `closest` (DOM Standard §4.2.6 "Mixin ParentNode",
 * §4.9 "Interface Element") and `getElementsByClassName` (§4.4 "list of elements with class names"),
 * over `@sluice/selectors`' compiled form. Every walk is iterative, in tree order; a `<template>`'s
 * contents are not its children, so a query does not enter them (query the `content` fragment for that).
 */
import { InvalidSelectorError, type SelectorList, parseSelectorList, isAsciiWhitespace, asciiLowercase } from '@sluice/selectors';
import { NS } from '@sluice/tree-builder';
import type { Document } from '../document.js';
import type { Element } from '../element.js';
import { type Node, NodeType, nextInSubtree } from '../node.js';
import { attributeValue } from './element-data.js';
import { AncestorCounts, ancestorFilterFor } from './ancestor-filter.js';
import { MatchContext, attributesMatch, matchesList } from './match.js';

/** Lists already checked for pseudo-classes sluice does not evaluate. */
const checked = new WeakSet<SelectorList>();

/**
 * DOM §4.2.6 "scope-match a selectors string", step 1: parse, or throw a `SyntaxError` DOMException that
 * names the selector (worded like Chromium's, plus what is wrong). `method` and `iface` name the caller.
 */
export function compileSelectors(selectors: string, method: string, iface: string): SelectorList {
  const text = String(selectors);
  let list: SelectorList;
  try {
    list = parseSelectorList(text);
  } catch (err) {
    if (err instanceof InvalidSelectorError) {
      throw new DOMException(`Failed to execute '${method}' on '${iface}': '${text}' is not a valid selector: ${err.detail}`, 'SyntaxError');
    }
    throw err;
  }
  if (!checked.has(list)) {
    const unsupported = findUnsupported(list);
    if (unsupported !== null) {
      throw new DOMException(
        `Failed to execute '${method}' on '${iface}': '${text}' uses the pseudo-class "${unsupported}", which sluice does not evaluate (it depends on form state, language or direction)`,
        'NotSupportedError',
      );
    }
    checked.add(list);
  }
  return list;
}

/** The name of the first `unsupported` pseudo-class in the list (walks the selector, not the tree). */
function findUnsupported(list: SelectorList): string | null {
  for (const complex of list) {
    for (const compound of complex.compounds) {
      for (const p of compound.pseudos) {
        if (p.kind === 'unsupported') return p.name;
        const inner =
          p.kind === 'is' || p.kind === 'not' ? findUnsupported(p.list)
          : p.kind === 'nth-child' && p.of !== null ? findUnsupported(p.of)
          : p.kind === 'has' ? findUnsupported(p.relatives.map((r) => r.selector))
          : null;
        if (inner !== null) return inner;
      }
    }
  }
  return null;
}

function interfaceName(node: Node): string {
  switch (node.nodeType) {
    case NodeType.DOCUMENT_NODE:
      return 'Document';
    case NodeType.DOCUMENT_FRAGMENT_NODE:
      return 'DocumentFragment';
    default:
      return 'Element';
  }
}

function documentOf(node: Node): Document | null {
  return node.nodeType === NodeType.DOCUMENT_NODE ? (node as Document) : node._owner;
}

function isQuirks(node: Node): boolean {
  const doc = documentOf(node);
  return doc !== null && doc.mode === 'quirks';
}

/**
 * What `:scope` matches when querying from `root`: the element itself; for a document, its root element
 * (Chromium's answer: `document.querySelector(':scope')` is `<html>`); nothing for a fragment.
 */
function scopeElement(root: Node): Element | null {
  if (root.nodeType === NodeType.ELEMENT_NODE) return root as Element;
  if (root.nodeType === NodeType.DOCUMENT_NODE) return (root as Document).documentElement;
  return null;
}

/**
 * The descendant elements of `root` matching `selectors`, in tree order (DOM `querySelectorAll`). A new
 * array each call: the DOM's NodeList here is static (a snapshot, not live), so an array is the same
 * thing with the methods everyone already uses on arrays.
 */
export function querySelectorAll(root: Node, selectors: string): Element[] {
  const list = compileSelectors(selectors, 'querySelectorAll', interfaceName(root));
  const out: Element[] = [];
  collect(root, list, new MatchContext(scopeElement(root), isQuirks(root), true), out, false);
  return out;
}

/** The first descendant element of `root` matching `selectors`, in tree order, or null (DOM `querySelector`). */
export function querySelector(root: Node, selectors: string): Element | null {
  const list = compileSelectors(selectors, 'querySelector', interfaceName(root));
  const out: Element[] = [];
  collect(root, list, new MatchContext(scopeElement(root), isQuirks(root), true), out, true);
  return out.length > 0 ? out[0]! : null;
}

/**
 * Walk `root`'s descendants in tree order, pushing the elements that match. `first`: stop at the first.
 * The rightmost compounds' type names, when all have one, are compared before anything else; when the
 * selectors require ancestors with some name, id or class, the ancestor filter (ancestor-filter.ts)
 * skips the elements under which none is.
 */
function collect(root: Node, list: SelectorList, ctx: MatchContext, out: Element[], first: boolean): void {
  const names = rightmostNames(list);
  // One compound without pseudo-classes (`div`, `.x`, `a[href]`): its name and attribute tests alone.
  const c = list.length === 1 && list[0]!.compounds.length === 1 ? list[0]!.compounds[0]! : null;
  const plain = c !== null && c.pseudos.length === 0 && c.namespace === 'any' ? c.attributes : null;
  const filter = plain === null ? ancestorFilterFor(list, ctx.quirks) : null;
  const counts = filter === null ? null : new AncestorCounts(filter, ctx.quirks);
  // The keys each open element added (popped when the walk leaves it); the root's ancestors first.
  const open: (string[] | null)[] = [];
  if (counts !== null) {
    for (let a: Node | null = root; a !== null; a = a._parent) if (a.nodeType === NodeType.ELEMENT_NODE) counts.add(counts.keysOf(a as Element));
  }
  let n: Node | null = root._first;
  while (n !== null) {
    if (n.nodeType === NodeType.ELEMENT_NODE) {
      const el = n as Element;
      if (
        (names === null || names.has(el.namespaceURI === NS.HTML ? el.localName : asciiLowercase(el.localName))) &&
        (plain !== null
          ? // `names` is lowercase: a foreign element's name must also be the type selector as written (HTML §4.16.2).
            (c!.tag === null || el.namespaceURI === NS.HTML || el.localName === c!.tag) &&
            (plain.length === 0 || attributesMatch(plain, el, el.namespaceURI, ctx.quirks))
          : (counts === null || counts.mayMatch()) && matchesList(list, el, ctx))
      ) {
        out.push(el);
        if (first) return;
      }
      if (el._first !== null) {
        if (counts !== null) {
          const keys = counts.keysOf(el);
          counts.add(keys);
          open.push(keys);
        }
        n = el._first;
        continue;
      }
    }
    // Next in tree order: the next sibling, else the next sibling of the nearest ancestor that has one.
    while (n !== null && n._next === null) {
      n = n._parent;
      if (n === root || n === null) return;
      if (counts !== null) counts.remove(open.pop()!);
    }
    n = n === null ? null : n._next;
  }
}

const namesOfList = new WeakMap<SelectorList, ReadonlySet<string> | null>();

/**
 * The lowercase names the rightmost compounds require, or null when some compound takes any name. A
 * prefilter only: a foreign element's name must match the type selector as written (`typeMatches`).
 */
function rightmostNames(list: SelectorList): ReadonlySet<string> | null {
  let names = namesOfList.get(list);
  if (names !== undefined) return names;
  const set = new Set<string>();
  for (const c of list) {
    const tag = c.compounds[c.compounds.length - 1]!.tagLower;
    if (tag === null) {
      namesOfList.set(list, null);
      return null;
    }
    set.add(tag);
  }
  namesOfList.set(list, set);
  return set;
}

/** Whether `el` matches `selectors` (DOM `Element.matches`), with `:scope` being `el`. */
export function matches(el: Element, selectors: string, method = 'matches'): boolean {
  const list = compileSelectors(selectors, method, 'Element');
  return matchesList(list, el, new MatchContext(el, isQuirks(el), false));
}

/** The closest inclusive ancestor of `el` that matches `selectors`, or null (DOM `Element.closest`). */
export function closest(el: Element, selectors: string): Element | null {
  const list = compileSelectors(selectors, 'closest', 'Element');
  const ctx = new MatchContext(el, isQuirks(el), true);
  for (let n: Node | null = el; n !== null && n.nodeType === NodeType.ELEMENT_NODE; n = n._parent) {
    if (matchesList(list, n as Element, ctx)) return n as Element;
  }
  return null;
}

/**
 * DOM §4.4 "list of elements with class names": the descendant elements of `root` whose class list has
 * every class in `classNames` (split on ASCII whitespace; ASCII case-insensitive in quirks mode), in
 * tree order. A snapshot array (the DOM's HTMLCollection is live).
 */
export function getElementsByClassName(root: Node, classNames: string): Element[] {
  const quirks = isQuirks(root);
  const wanted = splitOnWhitespace(quirks ? asciiLowercase(String(classNames)) : String(classNames));
  const out: Element[] = [];
  if (wanted.length === 0) return out;
  for (let n = root._first; n !== null; n = nextInSubtree(n, root)) {
    if (n.nodeType !== NodeType.ELEMENT_NODE) continue;
    const value = attributeValue(n as Element, 'class');
    if (value === null) continue;
    const have = splitOnWhitespace(quirks ? asciiLowercase(value) : value);
    if (wanted.every((c) => have.includes(c))) out.push(n as Element);
  }
  return out;
}

/** Split on ASCII whitespace, dropping empty tokens (Infra "split a string on ASCII whitespace"). */
function splitOnWhitespace(s: string): string[] {
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i <= s.length; i++) {
    if (i === s.length || isAsciiWhitespace(s.charCodeAt(i))) {
      if (start >= 0) out.push(s.slice(start, i));
      start = -1;
    } else if (start < 0) start = i;
  }
  return out;
}
