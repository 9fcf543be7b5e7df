// What a window needs once it has a service to call: the client core (sync, api, auth and the wire
// schemas) and the live set of parts built on it (the views' trees, notifications, the assistants
// feature, the Answers view). extension.ts loads it with import() when it first builds a live set,
// never during activate(): the release build makes it a file of its own (dist/live-core.js), so a
// window that is not set up never loads it (docs/decisions.md, "Load at activation").
export { createClientCore, identityFileExposure, InsecureAddressError } from '../sync';
export { LiveParts } from './live-parts';
export { openDemoTerminals } from './assistants/demo-terminals';
