/** The help texts: `sluice --help` and `sluice COMMAND --help`. */

const COMMON = `common options:
  --encoding LABEL   decode the input with this encoding (an Encoding Standard label) unless it
                     starts with a byte order mark; by default it is sniffed as a browser does
  --chunk-size N     read the input in chunks of N bytes (default 16384); the output is the same
                     for every N
  -q, --quiet        no progress line and no notes on stderr
  -h, --help         this help`;

export const USAGE = `usage: sluice COMMAND [options] [FILE]

The HTML tool that builds the tree a browser builds, streaming. FILE is a path, or - (or nothing) for
standard input; output goes to standard output, errors to standard error.

commands:
  select SELECTOR [FILE]  the elements a CSS selector matches: outer HTML, --text, --attr NAME, --count
  rewrite [FILE]          change the document as it streams; untouched bytes are copied as they came
  check [FILE...]         every parse error, FILE:LINE:COL: code; exit 1 if there is any
  parse [FILE]            the document's tree: --format tree|html5lib|html|json
  tokenize [FILE]         the tokens as JSON lines (--summary for counts and the round-trip check)
  events [FILE]           the tree builder's mutation events as JSON lines

  sluice COMMAND --help   the options of a command
  sluice --version        the version

exit codes: 0 ok, 1 errors found (check) or a file or input problem, 2 a usage error
docs: docs/cli.md
`;

export const HELP: Record<string, string> = {
  select: `usage: sluice select SELECTOR [FILE] [options]

One line per element the selector matches in the tree a browser builds (implied <tbody>, <body>,
foster parenting and all), in the order the elements begin:
  (default)          the element's outer HTML (its serialization, as outerHTML gives)
  --text             its text content
  --attr NAME        the value of its attribute NAME; elements without it are skipped
  --count            only the number of matches
  --first            stop at the first match, and stop reading the input
  --json             each result as a JSON string (a result with newlines stays on one line)
  --scripting on|off the scripting flag (default on: <noscript> holds text)
  --dom              match on the whole document's DOM instead of streaming (for comparison)

A selector that can be decided when the start tag arrives streams; others (:last-child, :has(), …)
are matched once the whole document is parsed.

${COMMON}
`,
  rewrite: `usage: sluice rewrite [FILE] [edits…] [options]

Streams the document through HTMLRewriter; bytes a handler did not touch are copied as they came, in
the document's own encoding. Edits, applied in the order written (each may be repeated):
  --remove SEL                 remove matched elements and their content
  --set-attr SEL NAME=VALUE    set an attribute
  --remove-attr SEL NAME       remove an attribute
  --before SEL HTML            insert HTML before the element
  --after SEL HTML             … after it
  --prepend SEL HTML           … as its first content
  --append SEL HTML            … as its last content
  --replace SEL HTML           replace the element with HTML
  --script MODULE              an ES module whose default export receives the HTMLRewriter and
                               registers handlers (it may be async)

${COMMON}
`,
  check: `usage: sluice check [FILE...] [options]

Every parse error of each file (HTML §13.2.2, the standard's codes), once, in input order:
  FILE:LINE:COL: code
Exit code 1 if any file has an error, 0 if none.
  --format text|json   json: one JSON object a line, {"file","line","col","offset","code"}
  --scripting on|off   the scripting flag (default on)

${COMMON}
`,
  parse: `usage: sluice parse [FILE] [options]

Parses the document (streamed in, chunk by chunk) and writes its tree (streamed out):
  --format tree        an indented outline for people (default)
  --format html5lib    the html5lib tree-construction tests' format
  --format html        the serialized document (HTML §13.3)
  --format json        the tree as JSON (shape: docs/cli.md)
  --locations          (tree) each node's source offsets
  --show-encoding      first, the encoding the input was decoded with and why
  --scripting on|off   the scripting flag (default on)

${COMMON}
`,
  tokenize: `usage: sluice tokenize [FILE] [options]

The tokens, one JSON object a line, as the parser's tokenizer emits them (the tree builder switches
its text modes): {"type","start","raw",…} — shapes in docs/cli.md.
  --errors             also the tokenizer's parse errors, as {"type":"error",…} lines
  --summary            instead: counts by type, frequent tags, parse errors, the round-trip check
                       (exit 1 if the tokens' raw text does not give back the input)
  --scripting on|off   the scripting flag (default on)

${COMMON}
`,
  events: `usage: sluice events [FILE] [options]

The tree builder's mutation events, one JSON object a line, in @sluice/dom's RecordingSink shape
({"op":"createElement",…}, {"op":"insertText",…} …; docs/cli.md): replayRecording rebuilds the DOM.
  --scripting on|off   the scripting flag (default on)

${COMMON}
`,
};
