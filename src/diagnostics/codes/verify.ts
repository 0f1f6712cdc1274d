import { defineDiagnostics } from '../catalog.js';

// AUR5xxx — writer output and verification, stages E-G.
defineDiagnostics([
]);
