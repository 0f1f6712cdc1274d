import { defineDiagnostics } from '../catalog.js';

// AUR6xxx — commit, git, locks, resume, season workflow.
defineDiagnostics([
]);
