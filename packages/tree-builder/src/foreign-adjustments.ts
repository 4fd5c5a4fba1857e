/**
 * The case and namespace adjustments for foreign content (WHATWG HTML §13.2.6.1:
 * "adjust MathML attributes", "adjust SVG attributes", "adjust foreign attributes", and the SVG tag name
 * table of §13.2.6.5 "any other start tag").
 */
import { DecodedAttribute, type Attribute } from '@sluice/tokenizer';
import { NS, type ElementAttribute, type Namespace } from './sink.js';

/** §13.2.6.5: SVG element names whose lowercased token name must be case-adjusted. */
export const SVG_TAG_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'altGlyph', 'altGlyphDef', 'altGlyphItem', 'animateColor', 'animateMotion', 'animateTransform',
    'clipPath', 'feBlend', 'feColorMatrix', 'feComponentTransfer', 'feComposite', 'feConvolveMatrix',
    'feDiffuseLighting', 'feDisplacementMap', 'feDistantLight', 'feDropShadow', 'feFlood', 'feFuncA',
    'feFuncB', 'feFuncG', 'feFuncR', 'feGaussianBlur', 'feImage', 'feMerge', 'feMergeNode', 'feMorphology',
    'feOffset', 'fePointLight', 'feSpecularLighting', 'feSpotLight', 'feTile', 'feTurbulence',
    'foreignObject', 'glyphRef', 'linearGradient', 'radialGradient', 'textPath',
  ].map((name) => [name.toLowerCase(), name]),
);

/** "adjust SVG attributes". */
const SVG_ATTRIBUTE_NAMES: ReadonlyMap<string, string> = new Map(
  [
    'attributeName', 'attributeType', 'baseFrequency', 'baseProfile', 'calcMode', 'clipPathUnits',
    'diffuseConstant', 'edgeMode', 'filterUnits', 'glyphRef', 'gradientTransform', 'gradientUnits',
    'kernelMatrix', 'kernelUnitLength', 'keyPoints', 'keySplines', 'keyTimes', 'lengthAdjust',
    'limitingConeAngle', 'markerHeight', 'markerUnits', 'markerWidth', 'maskContentUnits', 'maskUnits',
    'numOctaves', 'pathLength', 'patternContentUnits', 'patternTransform', 'patternUnits', 'pointsAtX',
    'pointsAtY', 'pointsAtZ', 'preserveAlpha', 'preserveAspectRatio', 'primitiveUnits', 'refX', 'refY',
    'repeatCount', 'repeatDur', 'requiredExtensions', 'requiredFeatures', 'specularConstant',
    'specularExponent', 'spreadMethod', 'startOffset', 'stdDeviation', 'stitchTiles', 'surfaceScale',
    'systemLanguage', 'tableValues', 'targetX', 'targetY', 'textLength', 'viewBox', 'viewTarget',
    'xChannelSelector', 'yChannelSelector', 'zoomAndPan',
  ].map((name) => [name.toLowerCase(), name]),
);

/** "adjust foreign attributes": qualified name → [prefix, local name, namespace]. */
const FOREIGN_ATTRIBUTES: ReadonlyMap<string, readonly [string | null, string, Namespace]> = new Map([
  ['xlink:actuate', ['xlink', 'actuate', NS.XLINK]],
  ['xlink:arcrole', ['xlink', 'arcrole', NS.XLINK]],
  ['xlink:href', ['xlink', 'href', NS.XLINK]],
  ['xlink:role', ['xlink', 'role', NS.XLINK]],
  ['xlink:show', ['xlink', 'show', NS.XLINK]],
  ['xlink:title', ['xlink', 'title', NS.XLINK]],
  ['xlink:type', ['xlink', 'type', NS.XLINK]],
  ['xml:lang', ['xml', 'lang', NS.XML]],
  ['xml:space', ['xml', 'space', NS.XML]],
  ['xmlns', [null, 'xmlns', NS.XMLNS]],
  ['xmlns:xlink', ['xmlns', 'xlink', NS.XMLNS]],
]);

/** An attribute as the sink receives it. */
export class TreeAttribute implements ElementAttribute {
  declare readonly name: string;
  declare readonly value: string;
  declare readonly namespace: Namespace | null;
  declare readonly prefix: string | null;
  declare readonly localName: string;
  constructor(name: string, value: string, namespace: Namespace | null, prefix: string | null, localName: string) {
    this.name = name;
    this.value = value;
    this.namespace = namespace;
    this.prefix = prefix;
    this.localName = localName;
  }
}

const NO_ATTRIBUTES: readonly ElementAttribute[] = Object.freeze([]);

/**
 * The attributes of an HTML element: no namespace, no prefix, local name = name. The tokenizer's own
 * attributes (`DecodedAttribute`) already are exactly that, so their list is used as it is: no copy, and
 * nothing more for the DOM to keep. Attributes from elsewhere (hand-made tokens) are copied.
 */
export function htmlAttributes(attributes: readonly Attribute[]): readonly ElementAttribute[] {
  const n = attributes.length;
  if (n === 0) return NO_ATTRIBUTES;
  let i = 0;
  while (i < n && attributes[i] instanceof DecodedAttribute) i++;
  if (i === n) return attributes as readonly DecodedAttribute[];
  const out = new Array<ElementAttribute>(n);
  for (i = 0; i < n; i++) {
    const attribute = attributes[i];
    const name = attribute.name;
    out[i] = new TreeAttribute(name, attribute.value, null, null, name);
  }
  return out;
}

/**
 * The attributes of a MathML or SVG element: "adjust MathML attributes" (`definitionurl`) or
 * "adjust SVG attributes", then "adjust foreign attributes".
 */
export function foreignAttributes(
  attributes: readonly Attribute[],
  namespace: typeof NS.MATHML | typeof NS.SVG,
): readonly ElementAttribute[] {
  const n = attributes.length;
  if (n === 0) return NO_ATTRIBUTES;
  const out = new Array<ElementAttribute>(n);
  for (let i = 0; i < n; i++) {
    let { name } = attributes[i];
    const { value } = attributes[i];
    if (namespace === NS.MATHML) {
      if (name === 'definitionurl') name = 'definitionURL';
    } else {
      name = SVG_ATTRIBUTE_NAMES.get(name) ?? name;
    }
    const foreign = FOREIGN_ATTRIBUTES.get(name);
    out[i] = foreign === undefined
      ? new TreeAttribute(name, value, null, null, name)
      : new TreeAttribute(name, value, foreign[2], foreign[0], foreign[1]);
  }
  return out;
}
