/**
 * `@sluice/encoding`: bytes in. The HTML Standard's encoding sniffing (§13.2.3), the Encoding Standard's
 * label table and streaming decoders for every one of its encodings.
 */
export { ENCODING_LABELS, ENCODING_NAMES, getEncoding, isEncodingName, type EncodingName } from './labels.js';
export { createDecoder, decodeBytes, iso885916Index, platformDecodes, utf8IncompleteTail, type Decoder } from './decoders.js';
export { encodingFromContentType, extractMimeType, parseMimeType, type MimeType } from './content-type.js';
export {
  PRESCAN_LIMIT,
  bomSniff,
  couldBeBomPrefix,
  encodingOfMeta,
  extractEncodingFromMetaContent,
  getXmlEncoding,
  prescan,
  requireEncoding,
  sniffEncoding,
  type Confidence,
  type PrescanResult,
  type SniffOptions,
  type SniffResult,
} from './sniff.js';
export { HtmlDecoder, changeTheEncoding, decodeHtmlBytes, type EncodingChange, type HtmlDecoderOptions } from './html-decoder.js';
