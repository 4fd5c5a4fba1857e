/**
 * A reference `querySelectorAll` for the tests: the rewriter's compiled selectors evaluated by walking a
 * real `@sluice/dom` tree (parents, previous siblings), the way a browser does — an implementation
 * independent of the rewriter's streaming view (sibling bits, counters, parent links), sharing only the
 * per-element type/attribute tests.
 */
import { Document, Element, type Node, nextInSubtree } from '@sluice/dom';
import { type ComplexSelector, type SelectorList, compoundSelfMatches, nthMatches } from '@sluice/rewriter';

function attrsOf(el: Element): readonly { name: string; value: string; namespace: string | null; prefix: string | null; localName: string }[] {
  return (el as unknown as { _attrs: never })._attrs;
}

function previousElementSiblings(el: Element): Element[] {
  const out: Element[] = [];
  for (let s = el.previousElementSibling; s !== null; s = s.previousElementSibling) out.push(s);
  return out;
}

/** Whether `el` matches the selector list, in a document in quirks mode or not. */
export function refMatchesList(list: SelectorList, el: Element, quirks: boolean): boolean {
  return list.some((c) => refMatchesComplex(c, el, quirks, c.compounds.length - 1));
}

function refMatchesComplex(sel: ComplexSelector, el: Element, quirks: boolean, k: number): boolean {
  if (!refMatchesCompound(sel, k, el, quirks)) return false;
  if (k === 0) return true;
  switch (sel.combinators[k - 1]) {
    case 'child': {
      const p = el.parentElement;
      return p !== null && refMatchesComplex(sel, p, quirks, k - 1);
    }
    case 'descendant':
      for (let a = el.parentElement; a !== null; a = a.parentElement) if (refMatchesComplex(sel, a, quirks, k - 1)) return true;
      return false;
    case 'adjacent': {
      const s = el.previousElementSibling;
      return s !== null && refMatchesComplex(sel, s, quirks, k - 1);
    }
    case 'sibling':
      return previousElementSiblings(el).some((s) => refMatchesComplex(sel, s, quirks, k - 1));
  }
  return false;
}

function refMatchesCompound(sel: ComplexSelector, k: number, el: Element, quirks: boolean): boolean {
  const compound = sel.compounds[k]!;
  if (!compoundSelfMatches(compound, el.localName, el.namespaceURI ?? '', attrsOf(el), quirks)) return false;
  for (const p of compound.pseudos) {
    switch (p.kind) {
      case 'nth-child': {
        if (p.of === null) {
          if (!nthMatches(p.a, p.b, previousElementSiblings(el).length + 1)) return false;
        } else {
          if (!refMatchesList(p.of.list, el, quirks)) return false;
          const index = previousElementSiblings(el).filter((s) => refMatchesList(p.of!.list, s, quirks)).length + 1;
          if (!nthMatches(p.a, p.b, index)) return false;
        }
        break;
      }
      case 'nth-of-type': {
        const same = previousElementSiblings(el).filter((s) => s.localName === el.localName && s.namespaceURI === el.namespaceURI);
        if (!nthMatches(p.a, p.b, same.length + 1)) return false;
        break;
      }
      case 'root':
        if (!(el.parentNode instanceof Document)) return false;
        break;
      case 'not':
        if (refMatchesList(p.list, el, quirks)) return false;
        break;
      case 'is':
        if (!refMatchesList(p.list, el, quirks)) return false;
        break;
    }
  }
  return true;
}

/** `document.querySelectorAll(list)`: matching elements in document order (template contents excluded). */
export function querySelectorAll(doc: Document, list: SelectorList): Element[] {
  const quirks = doc.mode === 'quirks';
  const out: Element[] = [];
  for (let n: Node | null = doc.firstChild; n !== null; n = nextInSubtree(n, doc)) {
    if (n instanceof Element && refMatchesList(list, n, quirks)) out.push(n);
  }
  return out;
}
