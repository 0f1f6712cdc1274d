import { defineDiagnostics } from '../catalog.js';

// AUR1xxx — world files: reading, JSON, schema, references.
defineDiagnostics([
]);
