/** `@sluice/selectors`: the selector engine shared by `@sluice/dom` and `@sluice/rewriter` (in progress). */
export {};
