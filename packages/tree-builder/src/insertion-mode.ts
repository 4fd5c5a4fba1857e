/**
 * The insertion modes (WHATWG HTML §13.2.4.1). There is no "in select" or "in select in table" mode: the
 * current standard parses `<select>` content with the "in body" rules.
 */
export const MODE = {
  INITIAL: 0,
  BEFORE_HTML: 1,
  BEFORE_HEAD: 2,
  IN_HEAD: 3,
  IN_HEAD_NOSCRIPT: 4,
  AFTER_HEAD: 5,
  IN_BODY: 6,
  TEXT: 7,
  IN_TABLE: 8,
  IN_TABLE_TEXT: 9,
  IN_CAPTION: 10,
  IN_COLUMN_GROUP: 11,
  IN_TABLE_BODY: 12,
  IN_ROW: 13,
  IN_CELL: 14,
  IN_TEMPLATE: 15,
  AFTER_BODY: 16,
  IN_FRAMESET: 17,
  AFTER_FRAMESET: 18,
  AFTER_AFTER_BODY: 19,
  AFTER_AFTER_FRAMESET: 20,
} as const;

export type InsertionMode = (typeof MODE)[keyof typeof MODE];

/** The standard's names of the insertion modes, indexed by `InsertionMode`. */
export const INSERTION_MODE_NAMES = [
  'initial',
  'before html',
  'before head',
  'in head',
  'in head noscript',
  'after head',
  'in body',
  'text',
  'in table',
  'in table text',
  'in caption',
  'in column group',
  'in table body',
  'in row',
  'in cell',
  'in template',
  'after body',
  'in frameset',
  'after frameset',
  'after after body',
  'after after frameset',
] as const;

/** An insertion mode's name as the standard spells it, e.g. `'in table body'`. */
export type InsertionModeName = (typeof INSERTION_MODE_NAMES)[number];
