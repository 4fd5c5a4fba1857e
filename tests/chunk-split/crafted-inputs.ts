/**
 * Longer inputs for the chunk-split test, written to pass through every tokenizer state between two
 * characters (the test checks that they do), with `autoTextMode` switching into RCDATA, RAWTEXT, script
 * data and PLAINTEXT, CDATA sections allowed or not, and EOF inside every kind of token.
 */

export interface CraftedInput {
  name: string;
  input: string;
  /** Whether `<![CDATA[` opens a CDATA section (as in foreign content). */
  cdataAllowed?: boolean;
}

export const craftedInputs: CraftedInput[] = [
  {
    name: 'script data: escapes and double escapes',
    input:
      '<script>a<b</c</scrip</scriptx><!x<!-y<!--z-<-->\n<!--<script>in</script>-->' +
      '<!--<SCRIPT/>x-y--z<</sc</script>-x--><!-- -<b></scripz></script>t',
  },
  {
    name: 'script data: dashes and less-than signs in both escapes',
    input: '<script><!--a--<b>--->c<!--<script >d--<-->e<</x</script ></script/>f<script><!--x',
  },
  { name: 'script data: EOF in a double escape', input: '<script><!--<script>--<' },
  { name: 'script data: EOF in an escaped end tag candidate', input: '<script><!--</scrip' },
  { name: 'script data: EOF after the escape start', input: '<script>x<!-' },
  {
    name: 'RCDATA: references and end tag candidates',
    input:
      '<title>a&amp;b&notin;&noti&ampx&#x41;&#65&#;&#x;&xyz;</tit</titlex</title\r\nx>' +
      '<textarea>\r\n&lt\0</TEXTAREA/></textarea foo=bar>',
  },
  {
    name: 'RAWTEXT: every element that switches to it',
    input:
      '<style>a&amp;</sty</style><xmp><b></xmp ><iframe>\0</iframe><noembed>&lt;</noembed>' +
      '<noframes></x></noframes><noscript><p></noscript>',
  },
  { name: 'PLAINTEXT', input: 'a<plaintext></plaintext>&amp;\r\n<b>\0' },
  {
    name: 'character references in data',
    input:
      '&amp &amp; &AMP; &notin; &notit; &not &#0; &#x110000; &#xD800; &#x80; &#128; &#x; &#; &#xZ; ' +
      '&xyz; &xyz &ampx &#9 &#x9 & &; &#12345678901234567890; &Aacute &aacute;',
  },
  {
    name: 'character references in attribute values',
    input: '<a href="?a=1&amp;b=2&copy=3&notx;&not=" t=\'&lt\' u=&gt v=&xyz; w="&#x41&#0;">',
  },
  {
    name: 'newlines: CR, LF and CRLF everywhere',
    input: 'a\r\nb\rc\n\r\r\n<a\r\nb="\r\nc\r"\rd=\'e\r\n\'>\r<!--\r\n-->\r\n<!DOCTYPE x PUBLIC "\r\n" \'\r\'>\r',
  },
  {
    name: 'tags and attributes',
    input:
      '<a b c=d e=\'f\' g="h"i=j =k l= m / n/><br/><br / ><A HREF="X" Href=y><p/x></p foo=bar/>' +
      '<a\0b c\0d=e\0f><a "b\' <c d=e"f\'<g=`h>',
  },
  { name: 'EOF in a start tag name', input: '<abc' },
  { name: 'EOF after an attribute name', input: '<a b ' },
  { name: 'EOF before an attribute value', input: '<a b= ' },
  { name: 'EOF in a quoted attribute value', input: '<a b=\'c&amp' },
  { name: 'EOF in an unquoted attribute value', input: '<a b=c&amp' },
  { name: 'EOF after a quoted attribute value', input: '<a b="c"' },
  { name: 'EOF in a self-closing start tag', input: '<a /' },
  { name: 'EOF in an end tag with a duplicate attribute', input: '</a x x' },
  { name: 'EOF after <', input: 'x<' },
  { name: 'EOF after </', input: 'x</' },
  { name: 'EOF in a reference', input: 'x&#x' },
  {
    name: 'comments',
    input:
      '<!----><!--><!---><!-- a -- b --!><!--a--!--><!--<!----><!--<!--x--><!---x--><!--a<b<!c<!-d-->' +
      '<!--x--!y--><!--<<!--->',
  },
  { name: 'EOF in a comment', input: '<!--x' },
  { name: 'EOF in a comment after -', input: '<!--x-' },
  { name: 'EOF in a comment after --', input: '<!--x--' },
  { name: 'EOF in a comment after --!', input: '<!--x--!' },
  { name: 'EOF in a comment after <!-', input: '<!--<!-' },
  { name: 'EOF in a comment after <!--', input: '<!--<!--' },
  { name: 'EOF in a comment start', input: '<!--' },
  { name: 'EOF in a comment start dash', input: '<!---' },
  { name: 'EOF in a comment after <!', input: '<!--<!' },
  { name: 'EOF in a markup declaration', input: '<!DOC' },
  {
    name: 'bogus comments',
    input: '<?xml version="1.0"?></ x></>\0<!x><!-x><![CDATA[y]]><!DOCTYP><!-',
  },
  { name: 'EOF in a bogus comment', input: '<?x' },
  {
    name: 'DOCTYPEs',
    input:
      '<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd">' +
      "<!doctype html system 'about:legacy-compat'><!DOCTYPE html PUBLIC'x''y'><!DOCTYPE html PUBLIC \"x>" +
      '<!DOCTYPEhtml><!DOCTYPE><!DOCTYPE html SYSTEMx><!DOCTYPE html PUBLIC "a" junk><!DOCTYPE html SYSTEM "a" junk>' +
      "<!DOCTYPE a PUBLIC 'b'\"c\"><!DOCTYPE a SYSTEM'b'><!DOCTYPE a PUBLIC><!DOCTYPE a SYSTEM ><!DOCTYPE a PUBLIC \"x\" x>" +
      '<!DOCTYPE a PUBLICx><!DOCTYPE a SYSTEM \'x>\0<!DOCTYPE\0x \0>',
  },
  { name: 'EOF in a DOCTYPE keyword', input: '<!DOCTYPE html PUB' },
  { name: 'EOF in a DOCTYPE public identifier', input: '<!DOCTYPE html PUBLIC "a' },
  { name: 'EOF in a DOCTYPE system identifier', input: "<!DOCTYPE html SYSTEM 'a" },
  { name: 'EOF between DOCTYPE identifiers', input: '<!DOCTYPE html PUBLIC "a" ' },
  { name: 'EOF after a DOCTYPE system identifier', input: '<!DOCTYPE html PUBLIC "a" "b" ' },
  { name: 'EOF after DOCTYPE', input: '<!DOCTYPE' },
  { name: 'EOF in a bogus DOCTYPE', input: '<!DOCTYPE a b' },
  { name: 'EOF after a DOCTYPE public keyword', input: '<!DOCTYPE a PUBLIC' },
  { name: 'EOF after a DOCTYPE system keyword', input: '<!DOCTYPE a SYSTEM' },
  {
    name: 'CDATA sections (foreign content)',
    input: 'a<![CDATA[x]y]]z]]]>b<![CDATA[\r\n\0]]]]><![cdata[x]]>',
    cdataAllowed: true,
  },
  { name: 'EOF in a CDATA section', input: '<![CDATA[x]', cdataAllowed: true },
  { name: 'EOF in a CDATA section end', input: '<![CDATA[x]]', cdataAllowed: true },
  { name: 'EOF in a markup declaration before CDATA', input: '<![CDA', cdataAllowed: true },
  {
    name: 'surrogates, noncharacters, controls',
    input:
      '\uD83D\uDE00 lone \uD800 x \uDC00 \uFFFE\uD83F\uDFFF\u0001\u007F\u0085<a b="\uD800\u0002">' +
      '&amp\uD800&not\u0001&#65\uDC00&lt\r\n\uDBFF',
  },
];
