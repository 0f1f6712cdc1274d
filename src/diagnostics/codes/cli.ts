import { defineDiagnostics } from '../catalog.js';

// AUR7xxx — CLI usage, config, import.
defineDiagnostics([
]);
