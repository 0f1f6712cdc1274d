import { defineDiagnostics } from '../catalog.js';

// AUR4xxx — LLM providers, routing, replay cache.
defineDiagnostics([
]);
