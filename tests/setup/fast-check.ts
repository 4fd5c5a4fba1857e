// fast-check runs with a random seed on a developer's machine (to keep finding new counterexamples) and
// with a fixed one under CI (so a landing never depends on luck). FC_SEED picks a seed explicitly, e.g.
// to replay the seed a failure printed.
import fc from 'fast-check';

const fromEnv = process.env.FC_SEED;
if (fromEnv !== undefined && fromEnv !== '') fc.configureGlobal({ seed: Number(fromEnv) });
else if (process.env.CI) fc.configureGlobal({ seed: 20261122 });
