import { defineDiagnostics } from '../catalog.js';

// AUR3xxx — planning stages A-D.
defineDiagnostics([
]);
