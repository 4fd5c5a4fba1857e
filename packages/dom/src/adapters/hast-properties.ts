/**
 * hast's property names and value kinds for HTML and SVG attributes, for `toHast`: the names of the
 * unified ecosystem's `property-information` (React-like camelCase: `className`, `htmlFor`, `tabIndex`,
 * `onClick`, `ariaHidden`, `strokeWidth`, `dataFooBar`) and how a value is read: a boolean attribute
 * becomes `true`, a number attribute a number, a list attribute an array (`className: ['a', 'b']`).
 *
 * This is a table of the attributes pages commonly use (everything the 258 pages of the benchmark corpus
 * use that property-information knows), written from the HTML and SVG standards' attribute lists — not
 * property-information itself, which would be a run-time dependency. An attribute it does not list
 * keeps its name as the property name and its value as a string: `hast-util-to-html` writes it back
 * unchanged, so nothing is lost, it is only less typed than what `hast-util-from-html` would make.
 */

/** How an attribute's value is read into a hast property. */
export interface PropertyInfo {
  /** The hast property name (`className`). */
  readonly property: string;
  /** A boolean attribute: '' or its own name is `true`. */
  readonly boolean: boolean;
  /** An overloaded boolean (`download`): as a boolean, else the string. */
  readonly overloadedBoolean: boolean;
  /** A number attribute: a value that is a number becomes one. */
  readonly number: boolean;
  /** A space-separated list (`class`, `rel`). */
  readonly spaceSeparated: boolean;
  /** A comma-separated list (`accept`, `coords`). */
  readonly commaSeparated: boolean;
  /** A list separated by commas or spaces. */
  readonly commaOrSpaceSeparated: boolean;
}

const B = 1;
const O = 2;
const N = 4;
const S = 8;
const C = 16;
const CS = 32;

/**
 * HTML properties by kind. The attribute is the property lowercased unless listed in ATTRIBUTE_NAMES.
 * `aria*` properties are `aria-` plus the rest lowercased.
 */
const HTML: [number, string][] = [
  [
    B,
    'allowFullScreen allowPaymentRequest allowUserMedia async autoFocus autoPlay checked compact controls declare ' +
      'default defer disabled disablePictureInPicture disableRemotePlayback formNoValidate inert isMap itemScope ' +
      'loop multiple muted noHref noModule noResize noShade noValidate noWrap open playsInline readOnly required ' +
      'reversed scoped seamless selected shadowRootClonable shadowRootDelegatesFocus shadowRootSerializable typeMustMatch',
  ],
  [O, 'download hidden'],
  [
    N,
    'cols colSpan height high low maxLength minLength optimum rows rowSpan size span start tabIndex width border ' +
      'hSpace vSpace marginHeight marginWidth leftMargin topMargin rightMargin bottomMargin charOff ' +
      'ariaColCount ariaColIndex ariaColSpan ariaLevel ariaPosInSet ariaRowCount ariaRowIndex ariaRowSpan ariaSetSize ' +
      'ariaValueMax ariaValueMin ariaValueNow',
  ],
  [
    S,
    'acceptCharset accessKey archive autoComplete blocking className dropzone headers htmlFor httpEquiv itemProp itemRef ' +
      'itemType ping rel sandbox ariaControls ariaDescribedBy ariaDropEffect ariaFlowTo ariaLabelledBy ariaOwns ' +
      'ariaRoleDescription ariaKeyShortcuts',
  ],
  [C, 'accept imageSrcSet srcSet'],
  [N | C, 'coords'],
  [
    0,
    'abbr action align alink allow allowTransparency alt as autoCapitalize axis background bgColor borderColor capture ' +
      'cellPadding cellSpacing char charSet cite classId clear code codeBase codeType color content contentEditable ' +
      'controlsList crossOrigin data dateTime dir dirName draggable encType enterKeyHint event face fetchPriority ' +
      'form formAction formEncType formMethod formTarget frame frameBorder href hrefLang id integrity itemId kind ' +
      'label lang language list loading longDesc manifest max media method min name nonce pattern placeholder ' +
      'popover poster preload profile prompt referrerPolicy rules scheme scope scrolling shape slot spellCheck src srcDoc ' +
      'srcLang step style summary target text title translate type useMap vAlign value valueType version vLink wrap ' +
      'rev role sizes ariaRelevant ' +
      'ariaActiveDescendant ariaAtomic ariaAutoComplete ariaBusy ariaChecked ariaCurrent ariaDetails ariaDisabled ' +
      'ariaErrorMessage ariaExpanded ariaGrabbed ariaHasPopup ariaHidden ariaInvalid ariaLabel ariaLive ariaModal ' +
      'ariaMultiLine ariaMultiSelectable ariaOrientation ariaPlaceholder ariaPressed ariaReadOnly ariaRequired ' +
      'ariaSelected ariaSort ariaValueText ' +
      // Event handler content attributes (HTML §8.1.8.2), hast's capitalization.
      'onAbort onAfterPrint onAuxClick onBeforeMatch onBeforePrint onBeforeToggle onBeforeUnload onBlur onCancel ' +
      'onCanPlay onCanPlayThrough onChange onClick onClose onContextLost onContextMenu onContextRestored onCopy ' +
      'onCueChange onCut onDblClick onDrag onDragEnd onDragEnter onDragExit onDragLeave onDragOver onDragStart onDrop ' +
      'onDurationChange onEmptied onEnded onError onFocus onFormData onHashChange onInput onInvalid onKeyDown ' +
      'onKeyPress onKeyUp onLanguageChange onLoad onLoadedData onLoadedMetadata onLoadEnd onLoadStart onMessage ' +
      'onMessageError onMouseDown onMouseEnter onMouseLeave onMouseMove onMouseOut onMouseOver onMouseUp onOffline ' +
      'onOnline onPageHide onPageShow onPaste onPause onPlay onPlaying onPopState onProgress onRateChange ' +
      'onRejectionHandled onReset onResize onScroll onScrollEnd onSecurityPolicyViolation onSeeked onSeeking onSelect ' +
      'onSlotChange onStalled onStorage onSubmit onSuspend onTimeUpdate onToggle onUnhandledRejection onUnload ' +
      'onVolumeChange onWaiting onWheel',
  ],
];

/** SVG properties by kind (the attribute is the property unless listed in ATTRIBUTE_NAMES). */
const SVG: [number, string][] = [
  [S, 'className'],
  [
    0,
    'clipPath clipRule color cx cy d dominantBaseline fill fillOpacity fillRule fontFamily fontSize fontStyle ' +
      'fontWeight gradientTransform gradientUnits height href id lang markerEnd markerMid markerStart mask offset ' +
      'opacity patternUnits points preserveAspectRatio r rx ry stopColor stopOpacity stroke strokeDasharray ' +
      'strokeDashoffset strokeLinecap strokeLinejoin strokeMiterlimit strokeOpacity strokeWidth style ' +
      'textAnchor title transform type version viewBox visibility width x x1 x2 y y1 y2',
  ],
];

/** Attribute names that are not simply the property lowercased. */
const ATTRIBUTE_NAMES: Record<string, string> = {
  className: 'class',
  htmlFor: 'for',
  httpEquiv: 'http-equiv',
  acceptCharset: 'accept-charset',
};

/** SVG attributes written with hyphens (`strokeWidth` is `stroke-width`), and the camelCase ones kept. */
const SVG_CAMEL = new Set(['gradientTransform', 'gradientUnits', 'patternUnits', 'preserveAspectRatio', 'viewBox']);

/** The attributes in the XML, XLink and XMLNS spaces, which both schemas know. */
const FOREIGN: [string, string][] = [
  ['xmlLang', 'xml:lang'],
  ['xmlBase', 'xml:base'],
  ['xmlSpace', 'xml:space'],
  ['xmlns', 'xmlns'],
  ['xmlnsXLink', 'xmlns:xlink'],
  ['xLinkActuate', 'xlink:actuate'],
  ['xLinkArcRole', 'xlink:arcrole'],
  ['xLinkHref', 'xlink:href'],
  ['xLinkRole', 'xlink:role'],
  ['xLinkShow', 'xlink:show'],
  ['xLinkTitle', 'xlink:title'],
  ['xLinkType', 'xlink:type'],
];

/** A schema: property infos by lowercased attribute name and by lowercased property name. */
type Schema = Map<string, PropertyInfo>;

function info(property: string, flags: number): PropertyInfo {
  return {
    property,
    boolean: (flags & B) !== 0,
    overloadedBoolean: (flags & O) !== 0,
    number: (flags & N) !== 0,
    spaceSeparated: (flags & S) !== 0,
    commaSeparated: (flags & C) !== 0,
    commaOrSpaceSeparated: (flags & CS) !== 0,
  };
}

function schema(groups: [number, string][], attributeOf: (property: string) => string): Schema {
  const map: Schema = new Map();
  const add = (property: string, attribute: string, flags: number): void => {
    const i = info(property, flags);
    map.set(attribute.toLowerCase(), i);
    map.set(property.toLowerCase(), i);
  };
  for (const [flags, names] of groups) for (const property of names.split(' ')) add(property, attributeOf(property), flags);
  for (const [property, attribute] of FOREIGN) add(property, attribute, 0);
  return map;
}

const htmlSchema = schema(HTML, (p) =>
  ATTRIBUTE_NAMES[p] ?? (p.startsWith('aria') ? `aria-${p.slice(4).toLowerCase()}` : p.toLowerCase()),
);
const svgSchema = schema(SVG, (p) =>
  ATTRIBUTE_NAMES[p] ?? (SVG_CAMEL.has(p) ? p : p.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)),
);

const PLAIN = (property: string): PropertyInfo => info(property, 0);
/** What property-information counts as a data attribute's name. */
const DATA_NAME = /^data[-\w.:]+$/i;

/**
 * The hast property for the attribute `name` on an element in `space`: from the table, else a data
 * attribute's camelCased name (`data-foo-bar` → `dataFooBar`), else the attribute name itself.
 */
export function propertyInfo(space: 'html' | 'svg', name: string): PropertyInfo {
  const lower = name.toLowerCase();
  const known = (space === 'svg' ? svgSchema : htmlSchema).get(lower);
  if (known !== undefined) return known;
  if (lower.length > 4 && lower.startsWith('data') && DATA_NAME.test(name) && name.charAt(4) === '-') {
    const rest = name.slice(5).replace(/-[a-z]/g, (m) => m.charAt(1).toUpperCase());
    return PLAIN(`data${rest.charAt(0).toUpperCase()}${rest.slice(1)}`);
  }
  return PLAIN(name);
}
