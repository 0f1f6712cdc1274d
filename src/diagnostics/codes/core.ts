import { defineDiagnostics } from '../catalog.js';

// AUR2xxx — expressions, deltas, invariants.
defineDiagnostics([
]);
